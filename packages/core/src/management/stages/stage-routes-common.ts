import { invalidRequest } from '../../http/http-error.js';
import { isHtmlColor } from '../../schemas/stage.js';
import type { MutationTx } from '../../domain/mutation.js';
import type { AppRecord } from '../../storage/records.js';

/** The schema admits `#hex` or letters; the named colors are checked against the list here. */
export function checkColor(color: string | undefined): void {
  if (color !== undefined && !isHtmlColor(color)) {
    throw invalidRequest('Invalid request body', { color: ['must be an HTML color name or a hex code (#rgb, #rgba, #rrggbb, #rrggbbaa)'] });
  }
}

/**
 * `/features` serves each flag's stage header, so changing a stage that flags use is a flag-state change in
 * every environment of the app; a stage no flag uses changes nothing that is served.
 */
export async function stageChangesFlagState(tx: MutationTx, app: AppRecord, stageId: string): Promise<void> {
  const flags = await tx.flags.listByApp(app.id);
  if (!flags.some((f) => f.stageId === stageId)) return;
  const envs = await tx.environments.listByApp(app.id);
  tx.changesFlagState(...envs.map((e) => e.id));
}
