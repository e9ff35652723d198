import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root: samples are checked and run as if they were files in it. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A ```ts block of the documentation. The info string may add one word after `ts`:
 * - `run`: the sample is also executed (it must finish on its own, quickly);
 * - `no-check <reason>`: not meant to compile as it stands (a fragment); the reason is required.
 */
export interface Sample {
  /** `README.md` or `docs/<page>.md`, relative to the root. */
  file: string;
  /** 1-based line of the sample's first code line in `file`. */
  line: number;
  code: string;
  mode: 'check' | 'run' | 'no-check';
  reason?: string;
}

const FENCE = /^```ts(?:\s+(.*))?$/;

/** Every documentation page: README.md and each docs/*.md, whoever adds one. */
export function docPages(): string[] {
  const docs = readdirSync(`${ROOT}docs`).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

/** The ```ts blocks of one page; throws on a marker it does not know or a no-check without a reason. */
export function samplesOf(file: string, text = readFileSync(`${ROOT}${file}`, 'utf8')): Sample[] {
  const lines = text.split('\n');
  const samples: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!.trimEnd());
    if (!open) continue;
    const info = (open[1] ?? '').trim();
    const [marker = '', ...rest] = info.split(/\s+/);
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    if (end === lines.length) throw new Error(`${file}:${i + 1}: a ts block is never closed`);
    const code = lines.slice(start, end).join('\n');
    const at = `${file}:${i + 1}`;
    if (marker === '') samples.push({ file, line: start + 1, code, mode: 'check' });
    else if (marker === 'run') samples.push({ file, line: start + 1, code, mode: 'run' });
    else if (marker === 'no-check') {
      const reason = rest.join(' ');
      if (!reason) throw new Error(`${at}: \`ts no-check\` needs a reason after it`);
      samples.push({ file, line: start + 1, code, mode: 'no-check', reason });
    } else throw new Error(`${at}: unknown marker "${info}" (use run, or no-check <reason>)`);
    i = end;
  }
  return samples;
}

/** A file name per sample, unique and telling: `README.md:42` → `README.md.L42.ts`. */
export const sampleFileName = (sample: Sample) => `${sample.file.replace(/\//g, '__')}.L${sample.line}.ts`;
