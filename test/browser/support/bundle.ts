import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Bundles an entry written inline (published packages from node_modules) into one IIFE for a test page. */
export async function bundleForPage(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
