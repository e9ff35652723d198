/** The rule builder: flags' targeting rules and segments' filters share it. */
export { FilterEditor, type FilterEditorProps, type Issues } from './filter-editor.js';
export { describeFilter, filterOfKind, filterProblems, formatPercent, ROLLOUT_MAX } from './filters.js';
export { OPERATORS } from './operators.js';
export { AttributeHints, RulesEditor } from './rules-editor.js';
