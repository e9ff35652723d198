import { IdentifierNode, RawNode } from 'kysely';

/** Kysely's `parseSavepointCommand`, which its package does not export: the identifier node escapes the name. */
export function savepointCommand(command: string, savepointName: string): RawNode {
  return RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(savepointName)]);
}
