// The words of src/shared/vocabulary.ts are defined there once: a job status, a video's or a list's
// status, a stop reason or a source kind spelled out anywhere else in src/ is an error, and the
// original track ('orig') may not be spelled at all, so that the layers cannot drift apart again.
// Code names a value instead (JOB_STATUS.completed, SOURCE_KIND.channel, ORIGINAL_TRACK); the
// store's statements name theirs through sqlLiterals. Type positions may spell values, since the
// compiler checks them against the vocabulary's types. And "sync" keeps one meaning, a finished job
// brought up to date: a name that joins it to a list, a page, a read, a round, a mode, a cache or the
// disk uses it for something else (DESIGN.md, "One word, one meaning").
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const VOCABULARY_FILE = fileURLToPath(new URL('../src/shared/vocabulary.ts', import.meta.url));

/** The lists of the vocabulary this rule guards, with the object that names their values. */
const GUARDED = {
  JOB_STATUSES: { what: 'job status', named: 'JOB_STATUS' },
  ITEM_STATUSES: { what: 'video status', named: 'ITEM_STATUS' },
  LIST_STATUSES: { what: 'list status', named: 'LIST_STATUS' },
  STOP_REASONS: { what: 'stop reason', named: 'STOP_REASON' },
  SOURCE_KINDS: { what: 'source kind', named: 'SOURCE_KIND' },
  // A single word, named by its constant: spelled anywhere at all, whatever holds it, it restates it.
  ORIGINAL_TRACK: { what: 'language entry', named: 'ORIGINAL_TRACK', single: true },
};

/**
 * The names under which code keeps a status, a reason or a source kind: a literal compared with,
 * switched on, or given to one of these is a restatement.
 */
const HOLDERS = new Set(['status', 'walkStatus', 'stopReason', 'reason', 'kind', 'sourceKind', 'filter']);

/** Collections of such values, by their name: a literal looked up in one (`kinds.has('channel')`) restates it. */
const HOLDER_COLLECTIONS = /(statuses|reasons|kinds)$/i;
const LOOKUPS = new Set(['has', 'includes']);

/** Functions whose arguments set or end a status, by their name: setStatus, setWalkStatus, failWalk. */
const SETTER = /status$|^fail/i;

/** Where the store's statements live: a status quoted inside SQL text counts there too. */
const SQL_FOLDER = 'src/core/store/';

/** The words that, right after "sync" in a name, make it mean what a sync is not (syncList, syncRound). */
const NOT_A_SYNC = new Set(
  'list lists page pages read reads round rounds mode cache disk directory file'.split(' '),
);

/** The words of a name: `recordSyncPage` -> record, sync, page. */
function wordsOf(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

/** Whether a name uses "sync" for something else than a sync: a read of a list, a round, the disk... */
function misusesSync(name) {
  const words = wordsOf(name);
  return words.some((word, index) => /^sync(s|ed|ing)?$/.test(word) && NOT_A_SYNC.has(words[index + 1]));
}

/** value -> the vocabulary lists that hold it, read from the vocabulary module itself. */
export function readVocabulary(source = readFileSync(VOCABULARY_FILE, 'utf8')) {
  const file = ts.createSourceFile(VOCABULARY_FILE, source, ts.ScriptTarget.Latest);
  const owners = new Map();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const name = ts.isIdentifier(declaration.name) ? declaration.name.text : '';
      const list = GUARDED[name];
      let init = declaration.initializer;
      while (init !== undefined && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) {
        init = init.expression;
      }
      if (list === undefined || init === undefined) continue;
      const values = list.single ? [init] : ts.isArrayLiteralExpression(init) ? init.elements : [];
      for (const element of values) {
        if (!ts.isStringLiteral(element)) continue;
        owners.set(element.text, [...(owners.get(element.text) ?? []), list]);
      }
    }
  }
  if (owners.size === 0) throw new Error(`no vocabulary found in ${VOCABULARY_FILE}`);
  return owners;
}

/** The name an expression ends in: `job.status` -> status, `this.#status` -> status. */
function nameOf(node) {
  switch (node?.type) {
    case 'Identifier':
    case 'PrivateIdentifier':
      return node.name;
    case 'MemberExpression':
      if (!node.computed) return nameOf(node.property);
      return node.property.type === 'Literal' ? String(node.property.value) : undefined;
    case 'ChainExpression':
    case 'TSNonNullExpression':
    case 'TSAsExpression':
      return nameOf(node.expression);
    default:
      return undefined;
  }
}

/** The expression a literal is the value of, through conditionals, ?? and || and type assertions. */
function useOf(node) {
  let use = node;
  for (;;) {
    const parent = use.parent;
    const passesThrough =
      (parent.type === 'ConditionalExpression' && parent.test !== use) ||
      parent.type === 'LogicalExpression' ||
      parent.type === 'TSAsExpression' ||
      parent.type === 'TSSatisfiesExpression' ||
      parent.type === 'TSNonNullExpression';
    if (!passesThrough) return use;
    use = parent;
  }
}

/** Whether a callee is `.has` or `.includes` of a collection of statuses, reasons or kinds. */
function lookupInHolders(callee) {
  if (callee.type !== 'MemberExpression' || !LOOKUPS.has(nameOf(callee.property))) return false;
  return HOLDER_COLLECTIONS.test(nameOf(callee.object) ?? '');
}

/** Whether the literal is given to, compared with or switched on something that holds a status. */
function heldAsStatus(node) {
  const use = useOf(node);
  const parent = use.parent;
  switch (parent.type) {
    case 'BinaryExpression':
      if (!['===', '!==', '==', '!='].includes(parent.operator)) return false;
      return HOLDERS.has(nameOf(parent.left === use ? parent.right : parent.left));
    case 'SwitchCase':
      return parent.test === use && HOLDERS.has(nameOf(parent.parent.discriminant));
    case 'Property':
      return parent.value === use && !parent.computed && HOLDERS.has(nameOf(parent.key) ?? parent.key.value);
    case 'AssignmentExpression':
      return parent.right === use && HOLDERS.has(nameOf(parent.left));
    case 'VariableDeclarator':
      return parent.init === use && HOLDERS.has(nameOf(parent.id));
    case 'CallExpression':
      if (parent.arguments.includes(use) && lookupInHolders(parent.callee)) return true;
    // falls through
    case 'NewExpression':
      return parent.arguments.includes(use) && SETTER.test(nameOf(parent.callee) ?? '');
    default:
      return false;
  }
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Statuses, stop reasons, source kinds and the original track are named from src/shared/vocabulary.ts, never spelled out.',
    },
    schema: [],
  },
  create(context) {
    const owners = readVocabulary();
    const file = context.filename.split('\\').join('/');
    const inStore = file.includes(`/${SQL_FOLDER}`) || file.startsWith(SQL_FOLDER);
    const describe = (value) => {
      const lists = owners.get(value);
      const what = [...new Set(lists.map((list) => list.what))].join(' or ');
      const named = lists.map((list) => (list.single ? list.named : `${list.named}.${value}`)).join(' or ');
      return `'${value}' is a ${what} of src/shared/vocabulary.ts: name it (${named}) instead of spelling it out.`;
    };
    const checkLiteral = (node, value) => {
      if (typeof value !== 'string') return;
      const lists = owners.get(value);
      const restated = lists !== undefined && (lists.some((list) => list.single) || heldAsStatus(node));
      if (restated) context.report({ node, message: describe(value) });
      else if (inStore) checkSql(node, value);
    };
    const checkSql = (node, text) => {
      for (const [, word] of text.matchAll(/'([a-z_]+)'/g)) {
        if (owners.has(word)) context.report({ node, message: `In SQL: ${describe(word)} (sqlLiterals)` });
      }
    };
    const checkName = (node) => {
      if (!misusesSync(node.name)) return;
      context.report({
        node,
        message: `'${node.name}' uses "sync" for what a sync is not: a sync is a finished job brought up to date; a list read from its start again is read again (readListsAgain), Keep current's pass a round, a write made to reach the disk an fsync (DESIGN.md, "One word, one meaning").`,
      });
    };
    return {
      Identifier: checkName,
      PrivateIdentifier: checkName,
      Literal: (node) => checkLiteral(node, node.value),
      TemplateLiteral(node) {
        if (node.expressions.length === 0) checkLiteral(node, node.quasis[0].value.cooked);
        else if (inStore) node.quasis.forEach((quasi) => checkSql(quasi, quasi.value.cooked ?? ''));
      },
      // A list that spells two or more values of one vocabulary restates it (or part of it).
      ArrayExpression(node) {
        const spelled = node.elements.filter(
          (element) => element?.type === 'Literal' && owners.has(element.value),
        );
        const byList = new Map();
        for (const element of spelled) {
          for (const list of owners.get(element.value)) byList.set(list, (byList.get(list) ?? 0) + 1);
        }
        if ([...byList.values()].some((count) => count >= 2)) {
          for (const element of spelled) context.report({ node: element, message: describe(element.value) });
        }
      },
    };
  },
};

export default { rules: { vocabulary: rule } };
