// their HIP baseline
