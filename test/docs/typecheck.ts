import ts from 'typescript';
import { ROOT, sampleFileName, type Sample } from './samples.js';

/** Where the samples seem to live: inside the repository, so `@flagmount/*` and node_modules resolve as for a test. */
const SAMPLE_DIR = `${ROOT}test/docs/.samples/`;

/**
 * Type-checks every sample against the packages' sources in one program (the root tsconfig: strict, paths to
 * sources). Each sample is its own module, served from memory. Resolves one message per problem, as
 * `file:line:column message` with the line in the Markdown page.
 */
export function typeCheck(samples: readonly Sample[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.json`, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const byPath = new Map<string, Sample>();
  // `export {}` makes each sample a module (top-level await, no shared globals), on the sample's last line so that
  // line numbers stay those of the page.
  const sources = new Map<string, string>();
  for (const sample of samples) {
    const path = `${SAMPLE_DIR}${sampleFileName(sample)}`;
    byPath.set(path, sample);
    sources.set(path, `${sample.code}\nexport {};\n`);
  }
  const options = { ...config.options, noEmit: true, noUnusedLocals: false };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) => {
    const text = sources.get(fileName);
    return text !== undefined ? ts.createSourceFile(fileName, text, language) : getSourceFile(fileName, language, onError, shouldCreate);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => sources.has(fileName) || fileExists(fileName);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => sources.get(fileName) ?? readFile(fileName);

  const program = ts.createProgram({ rootNames: [...sources.keys()], options, host });
  const problems: string[] = [];
  // Only the samples' own diagnostics: the packages' sources are checked by `npm run lint`, and asking the checker
  // about the samples alone makes it resolve just the declarations they use (seconds, not a whole-project check).
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...sources.keys()].flatMap((path) => {
      const file = program.getSourceFile(path)!;
      return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    }),
  ];
  for (const diagnostic of diagnostics) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const sample = diagnostic.file ? byPath.get(diagnostic.file.fileName) : undefined;
    if (!sample || diagnostic.start === undefined) {
      // A problem outside the samples (a package source): name the file it is in.
      problems.push(`${diagnostic.file?.fileName ?? '(program)'}: ${message}`);
      continue;
    }
    const { line, character } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
    problems.push(`${sample.file}:${sample.line + line}:${character + 1} ${message}`);
  }
  return problems;
}
