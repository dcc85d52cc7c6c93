void run(const float* x, float* y, long n) {
  for (long i = 0; i < n; ++i) y[i] = 2.0f * x[i] + 1.0f;
}
