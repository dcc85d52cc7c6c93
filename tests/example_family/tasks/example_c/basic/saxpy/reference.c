void run(const float* x, float* y, long n) {
  for (long i = 0; i < n; ++i) y[i] = (float)(2.0 * (double)x[i] + 1.0);
}
