import { run } from './run.js';

// The one place that touches the process: the commands write through `io` and answer their exit code.
const code = await run(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
