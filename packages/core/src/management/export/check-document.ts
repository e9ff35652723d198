import { validateFilter, type Filter } from '@flagmount/engine';
import { addIssue, invalidRequest, type Issues } from '../../http/http-error.js';
import type { ExportDocument } from '../../schemas/export.js';
import { isHtmlColor } from '../../schemas/stage.js';

/**
 * What the schema cannot say about an import document: unique names and keys, references that resolve inside the
 * document, filters the engine accepts. Every problem is collected with its field path before anything is
 * refused, so one answer lists them all. The document is self-contained: it names only what it defines.
 */
export function checkDocument(doc: ExportDocument): void {
  const issues: Issues = {};
  const filterIssues = (filter: Filter, path: string, rolloutKey: string | null) => {
    for (const issue of validateFilter(filter, { rolloutKey })) addIssue(issues, issue.path ? `${path}.${issue.path}` : path, issue.message);
  };
  const unique = <T>(items: readonly T[], name: (item: T) => string, path: (i: number) => string, what: string) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const n = name(item);
      if (seen.has(n)) addIssue(issues, path(i), `duplicate ${what}`);
      seen.add(n);
    });
    return seen;
  };

  // Environment names are unique case-insensitively (the in-process client picks environments by name).
  const envNames = unique(doc.environments, (e) => e.name.toLowerCase(), (i) => `environments.${i}.name`, 'environment name');
  unique(doc.environments, (e) => String(e.order), (i) => `environments.${i}.order`, 'environment order');
  const stageNames = unique(doc.stages, (s) => s.name, (i) => `stages.${i}.name`, 'stage name');
  doc.stages.forEach((s, i) => {
    if (!isHtmlColor(s.color)) addIssue(issues, `stages.${i}.color`, 'must be an HTML color name or a hex code');
  });
  const segmentNames = unique(doc.segments, (s) => s.name, (i) => `segments.${i}.name`, 'segment name');
  doc.segments.forEach((s, i) => filterIssues(s.filter, `segments.${i}.filter`, null));
  unique(doc.flags, (f) => f.key, (i) => `flags.${i}.key`, 'flag key');

  doc.flags.forEach((flag, i) => {
    const at = `flags.${i}`;
    if (flag.stage !== null && !stageNames.has(flag.stage)) addIssue(issues, `${at}.stage`, `no stage named "${flag.stage}" in stages`);
    for (const [envName, targeting] of Object.entries(flag.targeting)) {
      const path = `${at}.targeting.${envName}`;
      if (!envNames.has(envName.toLowerCase())) addIssue(issues, path, `no environment named "${envName}" in environments`);
      targeting.rules.forEach((rule, r) => {
        filterIssues(rule.filter, `${path}.rules.${r}.filter`, flag.key);
        if (rule.segment !== undefined && !segmentNames.has(rule.segment)) {
          addIssue(issues, `${path}.rules.${r}.segment`, `no segment named "${rule.segment}" in segments`);
        }
      });
      const variantKeys = new Set<string>();
      targeting.config.variants.forEach((variant, v) => {
        filterIssues(variant.filter, `${path}.config.variants.${v}.filter`, flag.key);
        if (variantKeys.has(variant.key)) addIssue(issues, `${path}.config.variants.${v}.key`, `duplicate variant key "${variant.key}"`);
        variantKeys.add(variant.key);
      });
    }
  });
  if (Object.keys(issues).length) throw invalidRequest('Invalid import document', issues);
}
