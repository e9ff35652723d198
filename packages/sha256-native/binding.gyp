{
  "targets": [
    {
      "target_name": "sha256_native",
      "sources": ["src/sha256_native.c"],
      "cflags_c": ["-std=c11", "-O3"],
      "xcode_settings": { "GCC_OPTIMIZATION_LEVEL": "3", "OTHER_CFLAGS": ["-std=c11"] }
    }
  ]
}
