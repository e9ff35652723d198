'use strict';

/**
 * Loads the SHA-NI addon, or gives null: the engine then hashes in JavaScript, so nothing here may throw or print.
 * Null when FLAGMOUNT_NATIVE_HASH=0 (the escape hatch, read on every call so tests can flip it), when the build
 * failed or was skipped (the package is an optional dependency), when the addon does not load (another Node ABI,
 * another platform's binary), and when the CPU lacks SHA-NI (a portable C compression would not beat V8).
 */
function load() {
  if (process.env.FLAGMOUNT_NATIVE_HASH === '0') return null;
  let binding;
  try {
    binding = require('./build/Release/sha256_native.node');
  } catch {
    return null;
  }
  if (binding === null || typeof binding !== 'object' || binding.accelerated !== true) return null;
  if (typeof binding.attach !== 'function') return null;
  return binding;
}

module.exports = { load };
