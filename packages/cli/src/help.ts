const CONNECTION = `Where the flags are (one of):
  --url <url> --key <key>   a running mount (e.g. http://localhost:3000/flags) and a management key
                            (or FLAGMOUNT_URL / FLAGMOUNT_KEY)
  --db <file>               a SQLite store file
  --pg <url> [--schema <s>] a Postgres store (connection string, schema; default public)
  --app <name or id>        the app (default: the first)`;

const EXIT_CODES = `Exit codes: 0 done; 1 refused (invalid file, unknown flag or environment…); 2 wrong usage;
3 store or URL unreachable; 4 management key refused.`;

export const HELP: Record<string, string> = {
  main: `flagmount — flags as code for a Flagmount mount or store

Usage: flagmount <command> [options]

Commands:
  types [--out flags.d.ts]                     typed flag keys for Reflag's node SDK, Flagmount's clients, OpenFeature
  export [--format json|yaml] [--out file]     the app's setup as one deterministic document
  import <file> [--dry-run]                    upsert a setup by keys and names; --dry-run prints the diff only
  flags list                                   every flag with its status in each environment
  flags on|off <key> --env <name>              serve a flag to everyone, or to no one, in one environment

${CONNECTION}

Run flagmount <command> --help for a command's options.
${EXIT_CODES}`,
  types: `Usage: flagmount types [--out flags.d.ts] [--only reflag|flagmount] [--openfeature] [connection]

Writes a declaration file that augments the Flags interface of @reflag/node-sdk and of @flagmount/core, so
that an unknown or removed flag key fails to compile, and each flag's config payload is typed (the union of its
variants' payloads in every environment). Archived flags are left out.

  --out <file>       write there (default: print)
  --only <module>    augment only reflag (@reflag/node-sdk) or flagmount (@flagmount/core)
  --openfeature      also set OpenFeature's flag-key types (@openfeature/core), which the server and web SDKs'
                     clients take: getBooleanValue only boolean flags, getStringValue only string ones, …

${CONNECTION}`,
  export: `Usage: flagmount export [--format json|yaml] [--out file] [connection]

Prints (or writes) the app, its environments, stages, segments, flags and each environment's targeting and
config, referenced by key and name, without ids, keys, secrets or timestamps: two exports of the same setup
are byte-equal.

  --format <json|yaml>  default: from --out's extension, else json
  --out <file>          write there (default: print)

${CONNECTION}`,
  import: `Usage: flagmount import <file> [--dry-run] [connection]

Upserts the setup of an export file (JSON or YAML) by keys and names: what exists is updated, what is missing
is created, nothing is deleted. Without --app it imports into the app named in the file, creating it (with its
environments and fresh SDK keys) when there is none; with a --db file that does not exist yet, the file too.
An invalid file is refused whole, with the path of every problem.

  --dry-run   print what would be created or updated and change nothing

${CONNECTION}`,
  flags: `Usage: flagmount flags list [connection]
       flagmount flags on <key> --env <name> [connection]
       flagmount flags off <key> --env <name> [connection]

list: key, name, stage, and per environment: off (no rule), targeted (rules), everyone (a rule matches
every context). on: one rule that matches everyone replaces the flag's rules in that environment; off: no rule
matches. Both are audited with the key (or, on a local store, cli:<user>) that ran them; the config is kept.

  --env <name>  the environment (name or id)

${CONNECTION}`,
};
