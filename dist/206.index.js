export const id = 206;
export const ids = [206];
export const modules = {

/***/ 83206:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  createAiAgents: () => (/* binding */ createAiAgents)
});

// EXTERNAL MODULE: ./src/loop/findings.ts
var loop_findings = __webpack_require__(84030);
// EXTERNAL MODULE: ./src/loop/usage.ts
var loop_usage = __webpack_require__(89553);
;// CONCATENATED MODULE: ./src/model/pricing.ts
const price = (input, output, cacheReadFactor = 0.1) => ({
    input,
    output,
    cacheWrite: input * 1.25,
    cacheRead: input * cacheReadFactor
});
/** Longest matching prefix wins, so dated model ids (claude-sonnet-4-5-20250929) find their family. */
const PRICES = [
    ['claude-fable-5-1', price(10, 50, 0.025)],
    ['claude-mythos-5-1', price(10, 50, 0.025)],
    ['claude-fable-5', price(10, 50)],
    ['claude-mythos-5', price(10, 50)],
    ['claude-opus-5', price(5, 25)],
    ['claude-opus-4-5', price(5, 25)],
    ['claude-opus-4-6', price(5, 25)],
    ['claude-opus-4-7', price(5, 25)],
    ['claude-opus-4-8', price(5, 25)],
    ['claude-opus-4-1', price(15, 75)],
    ['claude-opus-4', price(15, 75)],
    ['claude-sonnet-5', price(2, 10)],
    ['claude-sonnet-4', price(3, 15)],
    ['claude-haiku-4-5', price(1, 5)],
    ['claude-3-5-haiku', price(0.8, 4)]
];
/** The dearest listed price: unknown models are charged high, so a budget errs on the safe side. */
const FALLBACK = price(15, 75);
/**
 * The price of a model id, also in its Bedrock form (`anthropic.claude-sonnet-4-6-v1:0`, with a
 * cross-region prefix such as `us.`, `eu.`, `apac.`, `jp.`, `us-gov.` or `global.`) and its Vertex form
 * (`claude-sonnet-4-5@20250929`): prefixes and the `@version` are dropped, and the `-v1:0` suffix
 * does not disturb the prefix match.
 */
function priceOf(model) {
    const id = model.replace(/^((?:[a-z]{2,6}(?:-[a-z]+)?|anthropic)\.)+/, '').replace(/@.*$/, '');
    let best;
    for (const entry of PRICES) {
        if (id.startsWith(entry[0]) && (!best || entry[0].length > best[0].length))
            best = entry;
    }
    return best ? { price: best[1], known: true } : { price: FALLBACK, known: false };
}
function costOf(model, u) {
    const { price: p } = priceOf(model);
    const usd = (u.inputTokens * p.input +
        u.outputTokens * p.output +
        u.cacheWriteTokens * p.cacheWrite +
        u.cacheReadTokens * p.cacheRead) /
        1_000_000;
    return Math.round(usd * 1e6) / 1e6;
}

;// CONCATENATED MODULE: ./src/model/client.ts

/** Usage of one response, priced. */
function toUsage(model, u) {
    const usage = {
        inputTokens: u.input_tokens ?? 0,
        outputTokens: u.output_tokens ?? 0,
        cacheReadTokens: u.cache_read_input_tokens ?? 0,
        cacheWriteTokens: u.cache_creation_input_tokens ?? 0
    };
    return { ...usage, costUsd: costOf(model, usage) };
}
/** A rough token count of text (4 characters a token), for budgets before a call is made. */
function roughTokens(chars) {
    return Math.ceil(chars / 4);
}

;// CONCATENATED MODULE: ./src/model/budget.ts



/**
 * The loop's cumulative budget (max-cost-usd). Checked before every call with the dearest the call
 * could cost, so the loop stops before the budget is exceeded, not after.
 */
class Budget {
    spentBefore;
    maxUsd;
    used = (0,loop_usage/* zeroUsage */.My)();
    constructor(spentBefore, maxUsd) {
        this.spentBefore = spentBefore;
        this.maxUsd = maxUsd;
    }
    get usage() {
        return this.used;
    }
    get spentUsd() {
        return this.spentBefore + this.used.costUsd;
    }
    /** Worst-case cost of a call: all input uncached, all max_tokens of output. */
    static worstCase(model, promptChars, maxTokens) {
        const { price } = priceOf(model);
        return (roughTokens(promptChars) * price.cacheWrite + maxTokens * price.output) / 1_000_000;
    }
    allows(model, promptChars, maxTokens) {
        if (this.maxUsd === undefined)
            return true;
        return this.spentUsd + Budget.worstCase(model, promptChars, maxTokens) <= this.maxUsd;
    }
    record(usage) {
        this.used = (0,loop_usage/* addUsage */.vk)(this.used, usage);
    }
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./src/model/sanitize.ts
/**
 * Text a model reads that a person may not see: characters that render as nothing (zero-width and
 * direction controls, Unicode tag characters that spell hidden ASCII, variation selectors, Hangul
 * fillers, ...) and control characters. Tab, line feed and carriage return stay. The Unicode
 * property catches the default-ignorable characters the explicit list does not name.
 */
const INVISIBLE = new RegExp(
// eslint-disable-next-line no-misleading-character-class -- single code points, on purpose
[
    '[',
    '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F',
    '\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164',
    '\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFFB',
    '\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E0FFF}',
    '\\p{Default_Ignorable_Code_Point}',
    '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F',
    ']+'
].join(''), 'gu');
/** The invisible characters that change what code means to a reader: direction controls and tags. */
const DECEPTIVE = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/u;
const TAG = /[\u{E0000}-\u{E007F}]/u;
function codePoint(c) {
    return `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
/**
 * A visible stand-in for a run of hidden characters: which ones, and how many tag characters, but
 * never the text the tags spell.
 */
function marker(run) {
    const chars = [...run];
    const tags = chars.filter(c => TAG.test(c)).length;
    const others = [...new Set(chars.filter(c => !TAG.test(c)).map(codePoint))];
    const parts = [
        ...(tags ? [`${tags} tag character${tags > 1 ? 's' : ''}`] : []),
        ...others.slice(0, 3),
        ...(others.length > 3 ? ['…'] : [])
    ];
    return `⟦hidden: ${parts.join(', ')}⟧`;
}
/**
 * Removes invisible and control characters, and nothing else: safe on code, diffs, file contents
 * and command output. With `mark`, a run that holds a direction control or a tag character becomes
 * a visible marker instead (`⟦hidden: U+202E⟧`, `⟦hidden: 28 tag characters⟧`), so a reviewer can still flag code that reads
 * differently than it runs; the other runs (zero-width joiners, variation selectors) are dropped.
 */
function stripInvisible(text, options = {}) {
    return text.replace(INVISIBLE, run => (options.mark && DECEPTIVE.test(run) ? marker(run) : ''));
}
/** HTML comments, unterminated ones to the end of the text, as a Markdown renderer hides them. */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|--!>|$)/g;
/**
 * Markdown link reference definitions whose destination is `#` or `<>`: the "comment" idiom
 * (`[//]: # (hidden)`, `[comment]: <> (hidden)`, `[x]: # "hidden"`), which renders as nothing. The
 * whole line goes, with a title on the next line or spread over lines. Definitions with a real
 * destination (`[1]: https://example.com`) stay.
 */
const LINK_COMMENT = new RegExp([
    // at the start of a line, inside block quotes or list items too
    String.raw `^[ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*`,
    // the label: anything but brackets (escaped ones allowed), across lines but not a blank line
    String.raw `\[(?:\\.|[^\[\]\\\n]|\n(?![ \t]*\n))+\]:`,
    String.raw `[ \t]*\n?[ \t]*(?:#|<>|<#>)`,
    // an optional title, on the same line or the next
    String.raw `(?:[ \t]*\n?[ \t]*(?:"(?:[^"\n]|\n(?![ \t]*\n))*"|'(?:[^'\n]|\n(?![ \t]*\n))*'|\((?:[^)\n]|\n(?![ \t]*\n))*\)))?`,
    String.raw `[ \t]*(?:\n|$)`
].join(''), 'gm');
function cap(text, max) {
    if (text.length <= max)
        return text;
    // never cut a surrogate pair in half
    const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
    return `${text.slice(0, end)}\n… (cut)`;
}
/**
 * Untrusted prose (the PR's title and body, finding titles and messages, the `instructions`
 * input): invisible characters, HTML comments and Markdown comment lines are removed before it
 * reaches a prompt, so no instruction can hide in what a person does not see. Then it is cut at
 * `max` characters; pass `Infinity` where the text is already bounded elsewhere. Not for code: it
 * would remove HTML comments and lines from it.
 */
function sanitizeUntrusted(text, max = 20_000) {
    const cleaned = stripInvisible(text).replace(HTML_COMMENT, '').replace(LINK_COMMENT, '');
    return cap(cleaned, max);
}

;// CONCATENATED MODULE: ./src/model/prompts.ts



/**
 * The prompt templates ship beside dist/ in prompts/. The runner starts `node <action>/dist/index.js`,
 * so they are found relative to the running script.
 */
function promptsDir() {
    const script = process.argv[1] ?? '';
    return external_node_path_default().resolve(external_node_path_default().dirname(script), '..', 'prompts');
}
function loadPrompt(name, vars, dir = promptsDir()) {
    const template = (0,external_node_fs_.readFileSync)(external_node_path_default().join(dir, `${name}.md`), 'utf8');
    return template.replace(/\{\{(\w+)\}\}/g, (_, key) => vars[key] ?? `{{${key}}}`);
}
/**
 * The system prompt of the reviewer or the fixer: the template, the repository's sections (the
 * reviewer's guidelines) in a block of their own, and the `instructions` input (untrusted text,
 * sanitised) at the end of the last block, which carries the cache breakpoint.
 */
function systemPrompt(name, vars, options = {}) {
    const blocks = [{ type: 'text', text: loadPrompt(name, vars, options.dir) }];
    const sections = (options.sections ?? []).filter(Boolean);
    if (sections.length)
        blocks.push({ type: 'text', text: sections.join('\n\n') });
    const last = blocks[blocks.length - 1];
    if (options.instructions) {
        const instructions = sanitizeUntrusted(options.instructions);
        last.text += `\n\n## Additional instructions from the repository\n\n${instructions}`;
    }
    last.cache_control = { type: 'ephemeral' };
    return blocks;
}

// EXTERNAL MODULE: ./src/gates/parsers.ts
var parsers = __webpack_require__(44208);
// EXTERNAL MODULE: ./src/process/secrets.ts
var secrets = __webpack_require__(68948);
// EXTERNAL MODULE: ./src/fix/confined-fs.ts
var confined_fs = __webpack_require__(24335);
// EXTERNAL MODULE: ./src/fix/protected-paths.ts
var protected_paths = __webpack_require__(61932);
;// CONCATENATED MODULE: ./src/fix/workspace-tools.ts






const DISPUTE_REASONS = ['already_satisfied', 'stale', 'out_of_scope', 'wrong'];
const MAX_READ = 100_000;
/** The most one write_file or edit_file may write. */
const MAX_WRITE = 1_000_000;
function refuseProtected(rel, ctx) {
    if ((0,protected_paths/* isProtected */.b)(rel, ctx.protectedPaths))
        throw new confined_fs/* Refusal */.P_(`${rel} is protected (protected-paths, .github/workflows/**, .github/actions/**): it may not be changed`);
}
function numbered(text, offset, limit) {
    const lines = text.split('\n');
    return lines
        .slice(offset, offset + limit)
        .map((l, i) => `${String(offset + i + 1).padStart(5)}  ${l}`)
        .join('\n');
}
function walk(root, dir, out, max) {
    for (const entry of (0,external_node_fs_.readdirSync)(dir, { withFileTypes: true })) {
        if (out.length >= max)
            return;
        if ((0,confined_fs/* isGitName */.M$)(entry.name) || entry.name === 'node_modules' || entry.isSymbolicLink())
            continue;
        const abs = external_node_path_default().join(dir, entry.name);
        if (entry.isDirectory())
            walk(root, abs, out, max);
        else
            out.push(external_node_path_default().relative(root, abs).split((external_node_path_default()).sep).join('/'));
    }
}
const str = (description) => ({ type: 'string', description });
/** The fixer's tools as the model sees them; run_check's names are filled in per loop. */
const TOOL_SPECS = [
    {
        name: 'read_file',
        description: 'Read a text file of the workspace, with line numbers.',
        input_schema: {
            type: 'object',
            required: ['path'],
            properties: {
                path: str('Path relative to the repository root.'),
                offset: { type: 'integer', minimum: 0 },
                limit: { type: 'integer', minimum: 1 }
            }
        }
    },
    {
        name: 'list_files',
        description: 'List files under a folder of the workspace (recursively, without .git and node_modules).',
        input_schema: {
            type: 'object',
            properties: { path: str('Folder relative to the repository root; default the root.') }
        }
    },
    {
        name: 'search',
        description: 'Find lines containing a text (not a regex) in the workspace files.',
        input_schema: {
            type: 'object',
            required: ['text'],
            properties: { text: str('Text to find.'), path: str('Folder to search; default the root.') }
        }
    },
    {
        name: 'edit_file',
        description: 'Replace exactly one occurrence of old_text with new_text in a file.',
        input_schema: {
            type: 'object',
            required: ['path', 'old_text', 'new_text'],
            properties: {
                path: str('File path.'),
                old_text: str('Exact text to replace; must occur once.'),
                new_text: str('Replacement.')
            }
        }
    },
    {
        name: 'write_file',
        description: 'Create or overwrite a file with the given content.',
        input_schema: {
            type: 'object',
            required: ['path', 'content'],
            properties: { path: str('File path.'), content: str('Whole new content.') }
        }
    },
    {
        name: 'run_check',
        description: 'Run one of the repository checks configured for this loop and see its exit code and output.',
        input_schema: { type: 'object', required: ['name'], properties: {} }
    },
    {
        name: 'dispute_finding',
        description: 'Dispute a finding instead of changing code for it; the next review sees the reason.',
        input_schema: {
            type: 'object',
            required: ['id', 'reason', 'explanation'],
            properties: {
                id: str('Finding id, such as RL-0123456789.'),
                reason: { enum: DISPUTE_REASONS },
                explanation: str('Why, citing the code.')
            }
        }
    }
];
function toolSpecs(ctx) {
    const names = ctx.gates.length
        ? { enum: ctx.gates.map(c => c.name) }
        : str('No checks are configured.');
    // without the sandbox, a check the fixer wrote could read the job's secrets: no run_check
    const specs = ctx.sandboxed ? TOOL_SPECS : TOOL_SPECS.filter(s => s.name !== 'run_check');
    return specs.map(spec => spec.name === 'run_check'
        ? { ...spec, input_schema: { ...spec.input_schema, properties: { name: names } } }
        : { ...spec });
}
const ok = (content) => ({ content, isError: false });
const error = (content) => ({ content, isError: true });
function workspace_tools_text(content, rel) {
    if (content.includes(0))
        throw new confined_fs/* Refusal */.P_(`${rel} is a binary file`);
    return content.toString('utf8');
}
function readFile(input, ctx) {
    const read = (0,confined_fs/* readConfined */.Hz)(ctx.root, input['path']);
    if (!read)
        return error(`${String(input['path'])} is not a file`);
    const offset = typeof input['offset'] === 'number' ? input['offset'] : 0;
    const limit = typeof input['limit'] === 'number' ? input['limit'] : 2000;
    const out = numbered(workspace_tools_text(read.content, read.rel), offset, limit);
    return ok(out.length > MAX_READ ? `${out.slice(0, MAX_READ)}\n… (cut; read with offset)` : out);
}
function listFiles(input, ctx) {
    const { abs } = (0,confined_fs/* locate */.x5)(ctx.root, input['path'] ?? '.');
    const out = [];
    walk(ctx.root, abs, out, 1000);
    return ok(out.join('\n') || '(no files)');
}
function search(input, ctx) {
    const wanted = String(input['text'] ?? '');
    if (!wanted)
        return error('text must not be empty');
    const { abs } = (0,confined_fs/* locate */.x5)(ctx.root, input['path'] ?? '.');
    const files = [];
    walk(ctx.root, abs, files, 5000);
    const hits = [];
    for (const file of files) {
        let content;
        try {
            const read = (0,confined_fs/* readConfined */.Hz)(ctx.root, file);
            if (!read || read.content.includes(0))
                continue;
            content = read.content.toString('utf8');
        }
        catch {
            continue; // a hard-linked or moved file is skipped, not followed
        }
        content.split('\n').forEach((line, i) => {
            if (hits.length < 200 && line.includes(wanted))
                hits.push(`${file}:${i + 1}: ${line.slice(0, 300)}`);
        });
    }
    return ok(hits.join('\n') || 'no matches');
}
function editFile(input, ctx) {
    const { rel } = (0,confined_fs/* locate */.x5)(ctx.root, input['path']);
    refuseProtected(rel, ctx);
    const read = (0,confined_fs/* readConfined */.Hz)(ctx.root, rel);
    if (!read)
        return error(`${rel} does not exist; use write_file to create it`);
    const before = workspace_tools_text(read.content, rel);
    const oldText = String(input['old_text'] ?? '');
    const count = oldText ? before.split(oldText).length - 1 : 0;
    if (count !== 1)
        return error(`old_text occurs ${count} times in ${rel}; it must occur exactly once`);
    (0,confined_fs/* writeConfined */.ic)(ctx.root, rel, before.replace(oldText, () => String(input['new_text'] ?? '')), MAX_WRITE);
    return ok(`edited ${rel}`);
}
function writeFile(input, ctx) {
    const { rel } = (0,confined_fs/* locate */.x5)(ctx.root, input['path']);
    refuseProtected(rel, ctx);
    (0,confined_fs/* writeConfined */.ic)(ctx.root, rel, String(input['content'] ?? ''), MAX_WRITE);
    return ok(`wrote ${rel}`);
}
async function runCheck(input, ctx) {
    if (!ctx.sandboxed)
        throw new confined_fs/* Refusal */.P_('run_check is not available: PR code cannot be sandboxed on this runner');
    const check = ctx.gates.find(c => c.name === input['name']);
    if (!check)
        return error(`no check named ${String(input['name'])}; configured: ${ctx.gates.map(c => c.name).join(', ') || 'none'}`);
    const r = await ctx.runner.run(check.command, {
        cwd: ctx.cwd,
        env: ctx.env,
        timeoutMs: ctx.timeoutMs
    });
    return ok(`exit code ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}\n${(0,parsers/* tail */.RT)(r.output, 80, 8000)}`);
}
function disputeFinding(input, ctx) {
    const id = String(input['id'] ?? '');
    if (!ctx.findingIds.has(id))
        return error(`no open finding has the id ${id}`);
    const reason = `${String(input['reason'] ?? 'wrong')}: ${String(input['explanation'] ?? '').slice(0, 1000)}`;
    return { ...ok(`recorded the dispute of ${id}`), dispute: { id, reason } };
}
const TOOLS = {
    read_file: readFile,
    list_files: listFiles,
    search,
    edit_file: editFile,
    write_file: writeFile,
    run_check: runCheck,
    dispute_finding: disputeFinding
};
/** Runs one tool call. Refusals and errors come back as error results the model can read. */
async function runTool(name, input, ctx) {
    const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
    if (!tool)
        return error(`unknown tool ${name}`);
    const masked = (outcome) => ({
        ...outcome,
        content: (0,secrets/* maskSecrets */.QU)(outcome.content, ctx.secrets)
    });
    try {
        return masked(await tool(input, ctx));
    }
    catch (e) {
        if (e instanceof confined_fs/* Refusal */.P_)
            return masked({ content: `refused: ${e.message}`, isError: true, refused: e.message });
        return masked(error(`error: ${e.message}`));
    }
}

;// CONCATENATED MODULE: ./src/fix/ai-fixer.ts





const MAX_TOKENS = 8192;
/** Prose a model wrote or a check printed, bounded elsewhere: cleaned, not cut. */
const prose = (text) => sanitizeUntrusted(text, Infinity);
/**
 * The findings as the fixer's task. Titles, messages and rework are untrusted prose; a check's
 * description quotes its output, which is cleaned of invisible characters only.
 */
function task(findings, requiredRework, threshold) {
    const lines = ['# Findings to address', ''];
    for (const f of [...findings].sort(loop_findings/* bySeverity */.Np)) {
        const blocking = (0,loop_findings/* atOrAbove */.kU)(f.severity, threshold) ? 'blocking' : 'optional';
        lines.push(`## ${f.id} [${f.severity}, ${blocking}] ${prose(f.title)}`, `Location: ${f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : 'none'} · source: ${f.source}`, '', f.source === 'ai' ? prose(f.description) : stripInvisible(f.description));
        if (f.suggestedFix)
            lines.push('', `Suggested fix: ${prose(f.suggestedFix)}`);
        lines.push('');
    }
    if (requiredRework.length)
        lines.push('# Required rework', '', ...requiredRework.map(r => `- ${prose(r)}`), '');
    lines.push('Fix what you can, dispute what is wrong, then stop with a short summary.');
    return stripInvisible(lines.join('\n'));
}
/** Moves the single moving cache breakpoint to the end of the conversation, so each turn reads the last from cache. */
function withMovingBreakpoint(messages) {
    return messages.map((m, i) => {
        const last = i === messages.length - 1;
        return {
            ...m,
            content: m.content.map((b, j) => {
                const { cache_control: _drop, ...rest } = b;
                return last && j === m.content.length - 1
                    ? { ...rest, cache_control: { type: 'ephemeral' } }
                    : rest;
            })
        };
    });
}
/** The fixer's prompt: instructions and tools (cached), then the findings as its task. */
function fixerPrompt(deps, input) {
    const system = systemPrompt('fixer', {
        threshold: deps.threshold,
        protected: input.tools.protectedPaths.join(', '),
        checks: input.tools.gates.map(c => c.name).join(', ') || 'none configured'
    }, { instructions: deps.ai.instructions, dir: deps.promptsDir });
    const specs = toolSpecs(input.tools);
    specs[specs.length - 1] = { ...specs[specs.length - 1], cache_control: { type: 'ephemeral' } };
    const text = task(input.findings, input.requiredRework, deps.threshold);
    return { system, specs, messages: [{ role: 'user', content: [{ type: 'text', text }] }] };
}
/**
 * Runs the tool calls of one turn; disputes and refusals are collected for the record. What a tool
 * returns (file contents, search hits, check output) loses its invisible characters before the
 * model reads it.
 */
async function runCalls(calls, input, found, log) {
    const results = [];
    for (const call of calls) {
        const outcome = await runTool(call.name, (call.input ?? {}), input.tools);
        if (outcome.dispute)
            found.disputes.push(outcome.dispute);
        if (outcome.refused) {
            found.refusals.push(`${call.name}: ${outcome.refused}`);
            log.warning(`fixer: refused ${call.name}: ${outcome.refused}`);
        }
        results.push({
            type: 'tool_result',
            tool_use_id: call.id,
            content: stripInvisible(outcome.content),
            is_error: outcome.isError || undefined
        });
    }
    return results;
}
/**
 * The fixer agent: tools confined to the workspace, until it says it is done, or max-turns, the
 * timeout, the budget or an API error stops it. Whatever it changed stays in the work tree for the
 * caller to commit: work is never thrown away.
 */
async function aiFix(deps, input) {
    const { ai, client, budget } = deps;
    const deadline = deps.now() + ai.fixTimeoutMinutes * 60_000;
    const { system, specs, messages } = fixerPrompt(deps, input);
    const found = { disputes: [], refusals: [] };
    const stop = (stopReason, turns, error) => ({ ...found, turns, stopReason, error, transcript: messages });
    for (let turn = 1; turn <= ai.maxTurns; turn++) {
        const remaining = deadline - deps.now();
        if (remaining <= 0)
            return stop('timeout', turn - 1);
        const request = { system, tools: specs, messages: withMovingBreakpoint(messages) };
        if (!budget.allows(ai.fixModel, JSON.stringify(request).length, MAX_TOKENS))
            return stop('budget', turn - 1);
        let response;
        try {
            response = await client.create({
                model: ai.fixModel,
                maxTokens: MAX_TOKENS,
                ...request,
                toolChoice: { type: 'auto' },
                signal: AbortSignal.timeout(remaining)
            });
        }
        catch (e) {
            deps.log.warning(`fixer stopped at turn ${turn}: ${e.message}`);
            return stop(deps.now() >= deadline ? 'timeout' : 'error', turn - 1, e.message);
        }
        budget.record(response.usage);
        messages.push({
            role: 'assistant',
            content: response.content.length ? response.content : [{ type: 'text', text: '(empty)' }]
        });
        const calls = response.content.filter((b) => b.type === 'tool_use');
        if (calls.length === 0)
            return stop('done', turn);
        messages.push({ role: 'user', content: await runCalls(calls, input, found, deps.log) });
    }
    return stop('max_turns', ai.maxTurns);
}

// EXTERNAL MODULE: ./src/loop/fingerprint.ts
var fingerprint = __webpack_require__(93706);
// EXTERNAL MODULE: ./src/loop/state.ts
var loop_state = __webpack_require__(59431);
// EXTERNAL MODULE: ./node_modules/parse-diff/index.js
var parse_diff = __webpack_require__(82673);
var parse_diff_default = /*#__PURE__*/__webpack_require__.n(parse_diff);
;// CONCATENATED MODULE: ./src/review/diff-budget.ts

/**
 * Full diff under the budget; over it, whole per-file diffs in order of size (smallest first, so
 * more files are seen whole) until the budget is spent, and the rest listed by name and size.
 */
function selectDiff(diff, budgetChars) {
    const parsed = parse_diff_default()(diff);
    const chunks = splitPerFile(diff);
    const files = parsed.map((f, i) => ({
        path: (f.to && f.to !== '/dev/null' ? f.to : f.from) ?? `file-${i}`,
        additions: f.additions,
        deletions: f.deletions,
        isNew: f.new === true,
        text: chunks[i] ?? ''
    }));
    if (diff.length <= budgetChars) {
        return {
            text: diff,
            files: files.map(f => ({ ...strip(f), included: true })),
            totalChars: diff.length
        };
    }
    const order = [...files].sort((a, b) => a.text.length - b.text.length);
    const included = new Map();
    let used = 0;
    for (const f of order) {
        if (used + f.text.length > budgetChars)
            continue;
        used += f.text.length;
        included.set(f.path, f.text);
    }
    // the budget left over goes to the start of the smallest files that did not fit whole
    for (const f of order) {
        const left = budgetChars - used;
        if (included.has(f.path) || left < 2000)
            continue;
        const cut = f.text.slice(0, f.text.lastIndexOf('\n', left - 200) + 1);
        used += cut.length;
        included.set(f.path, `${cut}# … the diff of ${f.path} is cut here: ${cut.length} of ${f.text.length} characters shown\n`);
    }
    const omitted = files.filter(f => !included.has(f.path));
    const text = [
        ...files.filter(f => included.has(f.path)).map(f => included.get(f.path)),
        omitted.length
            ? `\n# ${omitted.length} file(s) left out of this diff to fit the review budget:\n${omitted.map(f => `#   ${f.path} (+${f.additions} -${f.deletions})`).join('\n')}\n`
            : ''
    ].join('');
    return {
        text,
        files: files.map(f => ({ ...strip(f), included: included.has(f.path) })),
        totalChars: diff.length
    };
}
function strip(f) {
    return { path: f.path, additions: f.additions, deletions: f.deletions, isNew: f.isNew };
}
function splitPerFile(diff) {
    const parts = diff.split(/^(?=diff --git )/m);
    return parts.filter(p => p.startsWith('diff --git '));
}

;// CONCATENATED MODULE: ./src/review/guidelines.ts
const GUIDELINE_FILES = ['.github/review-guidelines.md', 'REVIEW.md'];
/** The "Code Review Standards" section of a constitution file (any heading level, up to the next peer). */
function reviewStandardsSection(markdown) {
    const lines = markdown.split('\n');
    const start = lines.findIndex(l => /^#{1,6}\s+code review standards\s*$/i.test(l.trim()));
    if (start < 0)
        return undefined;
    const level = /^(#+)/.exec(lines[start].trim())[1].length;
    let end = lines.length;
    for (let i = start + 1; i < lines.length; i++) {
        const m = /^(#+)\s/.exec(lines[i].trim());
        if (m && m[1].length <= level) {
            end = i;
            break;
        }
    }
    return lines.slice(start, end).join('\n').trim();
}
/**
 * The review guidelines, read from the PR's base commit so a PR cannot rewrite the rules it is
 * reviewed by: the `guidelines` input, else .github/review-guidelines.md, REVIEW.md, or the
 * "Code Review Standards" section of constitution.md.
 */
async function loadGuidelines(git, baseSha, configured) {
    if (configured) {
        const text = await git.show(baseSha, configured);
        if (text === undefined) {
            throw new Error(`Input 'guidelines': ${configured} does not exist on the base branch; give a path relative to the repository root.`);
        }
        return { source: configured, text };
    }
    for (const file of GUIDELINE_FILES) {
        const text = await git.show(baseSha, file);
        if (text !== undefined)
            return { source: file, text };
    }
    for (const file of ['constitution.md', '.github/constitution.md', 'docs/constitution.md']) {
        const text = await git.show(baseSha, file);
        const section = text && reviewStandardsSection(text);
        if (section)
            return { source: `${file} (Code Review Standards)`, text: section };
    }
    return undefined;
}

// EXTERNAL MODULE: ./node_modules/ajv/dist/ajv.js
var ajv = __webpack_require__(42463);
// EXTERNAL MODULE: ./src/loop/types.ts
var types = __webpack_require__(96539);
;// CONCATENATED MODULE: ./src/review/verdict-schema.ts


const strings = { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 50 };
/** Also the tool's input_schema, so the model is held to exactly what we validate. */
const verdictSchema = {
    type: 'object',
    additionalProperties: false,
    required: [
        'decision',
        'summary',
        'findings',
        'failedCriteria',
        'passedCriteria',
        'requiredRework'
    ],
    properties: {
        decision: {
            enum: types/* DECISIONS */.Yv,
            description: 'GO only when nothing at or above the blocking severity remains.'
        },
        summary: { type: 'string', minLength: 1, maxLength: 4000 },
        findings: {
            type: 'array',
            maxItems: 200,
            items: {
                type: 'object',
                additionalProperties: false,
                required: ['severity', 'category', 'title', 'description'],
                properties: {
                    severity: { enum: types/* SEVERITIES */.oC },
                    category: { enum: types/* CATEGORIES */.R6 },
                    file: {
                        type: 'string',
                        minLength: 1,
                        maxLength: 1000,
                        description: 'Path relative to the repository root.'
                    },
                    line: {
                        type: 'integer',
                        minimum: 1,
                        description: 'Line in the current (head) version of the file.'
                    },
                    endLine: { type: 'integer', minimum: 1 },
                    title: { type: 'string', minLength: 1, maxLength: 300 },
                    description: { type: 'string', minLength: 1, maxLength: 8000 },
                    suggestedFix: { type: 'string', maxLength: 8000 }
                }
            }
        },
        failedCriteria: strings,
        passedCriteria: strings,
        requiredRework: strings
    }
};
function createVerdictValidator() {
    const validate = new ajv.Ajv({
        allErrors: true,
        strict: false
    }).compile(verdictSchema);
    return value => {
        if (validate(value))
            return { ok: true, verdict: value };
        return {
            ok: false,
            errors: (validate.errors ?? [])
                .slice(0, 20)
                .map(e => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
        };
    };
}

;// CONCATENATED MODULE: ./src/review/ai-reviewer.ts









const REVIEW_TOOL = 'submit_review';
const DIFF_BUDGET = 120_000;
const CONTEXT_BUDGET = 40_000;
const ai_reviewer_MAX_TOKENS = 16_384;
/** Prose a model wrote or a check printed, bounded elsewhere: cleaned, not cut. */
const ai_reviewer_prose = (text) => sanitizeUntrusted(text, Infinity);
/** Earlier iterations as metadata only: ids, titles, locations, statuses, and the fixer's disputes. */
function earlierRounds(state) {
    const round = (0,loop_state/* roundIterations */.je)(state);
    if (round.length === 0)
        return 'This is the first review of this PR.';
    const lines = [];
    for (const it of round) {
        lines.push(`Iteration ${it.n} reviewed ${it.reviewedSha.slice(0, 7)}: ${it.decision}`);
        for (const f of it.findings) {
            lines.push(`  - ${f.id} [${f.severity}] ${ai_reviewer_prose(f.title ?? '')}${f.file ? ` (${f.file}${f.line ? `:${f.line}` : ''})` : ''}: ${f.status}`);
        }
        for (const id of it.resolved)
            lines.push(`  - ${id}: fixed since the previous iteration`);
        for (const d of it.fix?.disputes ?? [])
            lines.push(`  - fixer disputed ${d.id}: ${ai_reviewer_prose(d.reason)}`);
        if (it.fix)
            lines.push(`  fix: ${it.fix.outcome}, ${(0,loop_state/* filesChangedCount */.rG)(it.fix)} file(s) changed`);
    }
    return lines.join('\n');
}
function gatesText(gates) {
    if (gates.length === 0)
        return 'No repository checks are configured.';
    return gates
        .map(g => {
        const head = `- ${g.name} (\`${g.command}\`): ${g.passed ? 'pass' : `FAIL (exit ${g.exitCode})`}`;
        const found = g.findings
            .slice(0, 20)
            .map(f => `    - ${f.id} ${f.file ? `${f.file}:${f.line ?? ''} ` : ''}${ai_reviewer_prose(f.title)}`);
        return [head, ...found].join('\n');
    })
        .join('\n');
}
async function surroundingCode(git, sha, files, budget) {
    const parts = [];
    let used = 0;
    for (const file of files) {
        const text = await git.show(sha, file);
        if (text === undefined || text.includes('\0'))
            continue;
        const numbered = stripInvisible(text, { mark: true })
            .split('\n')
            .map((l, i) => `${String(i + 1).padStart(5)}  ${l}`)
            .join('\n');
        if (used + numbered.length > budget)
            continue;
        used += numbered.length;
        parts.push(`=== ${file} (head, with line numbers) ===\n${numbered}`);
    }
    return parts.join('\n\n');
}
/** Turns the verdict's findings into findings with ids, dropping those that cite code that does not exist. */
async function locate(verdict, git, sha, threshold) {
    const tree = new Set(await git.listFiles(sha));
    const contents = new Map();
    const findings = [];
    let dropped = 0;
    for (const f of verdict.findings) {
        const file = f.file?.replace(/^\.?\//, '');
        if (!file || !f.line) {
            if ((0,loop_findings/* atOrAbove */.kU)(f.severity, threshold))
                dropped++;
            else
                findings.push({
                    ...f,
                    file: undefined,
                    line: undefined,
                    endLine: undefined,
                    id: (0,fingerprint/* fingerprint */.Rj)({ title: f.title }),
                    source: 'ai'
                });
            continue;
        }
        if (!tree.has(file)) {
            dropped++;
            continue;
        }
        if (!contents.has(file))
            contents.set(file, ((await git.show(sha, file)) ?? '').split('\n'));
        const lines = contents.get(file);
        if (f.line > lines.length) {
            dropped++;
            continue;
        }
        findings.push({
            ...f,
            file,
            endLine: f.endLine && f.endLine >= f.line && f.endLine <= lines.length ? f.endLine : undefined,
            id: (0,fingerprint/* fingerprint */.Rj)({ title: f.title, file, anchor: lines[f.line - 1] }),
            source: 'ai'
        });
    }
    return { findings, dropped };
}
function failClosed(error, budget) {
    return {
        decision: 'NEEDS_DISCUSSION',
        summary: `The AI review failed closed: ${error}`,
        findings: [],
        failedCriteria: [],
        passedCriteria: [],
        requiredRework: [],
        usage: budget.usage,
        dropped: 0,
        error
    };
}
/** The reviewer's prompt: the instructions and guidelines (cached), then the PR, its checks and its diff. */
async function reviewPrompt(deps, input) {
    const { pull, git } = input;
    const base = await git.prepareDiff(pull.baseRef, pull.baseSha, pull.headSha);
    const diff = selectDiff(await git.diff(base, pull.headSha), DIFF_BUDGET);
    // modified files get their surrounding code; a new file's diff already holds all of it
    const changed = diff.files.filter(f => f.included && !f.isNew).map(f => f.path);
    const context = await surroundingCode(git, pull.headSha, changed, CONTEXT_BUDGET);
    const guidelines = await loadGuidelines(git, pull.baseSha, deps.ai.guidelines);
    const system = systemPrompt('reviewer', { threshold: deps.threshold }, {
        sections: [
            guidelines
                ? `## Review guidelines (from ${guidelines.source})\n\n${stripInvisible(guidelines.text)}`
                : '## Review guidelines\n\nNone given: use general good practice.'
        ],
        instructions: deps.ai.instructions,
        dir: deps.promptsDir
    });
    const tools = [
        {
            name: REVIEW_TOOL,
            description: 'Submit the review verdict for the current head of the PR.',
            input_schema: verdictSchema,
            cache_control: { type: 'ephemeral' }
        }
    ];
    const user = [
        `# Pull request #${pull.number}: ${sanitizeUntrusted(pull.title, 500)}`,
        '',
        '## Description (untrusted text from the PR)',
        '',
        sanitizeUntrusted(pull.body) || '(empty)',
        '',
        `## Earlier iterations (metadata only)`,
        '',
        earlierRounds(input.state),
        '',
        '## Repository checks on this head',
        '',
        gatesText(input.gates),
        '',
        `## Diff against the merge base ${base.slice(0, 7)} → head ${pull.headSha.slice(0, 7)}${diff.text.length < diff.totalChars ? ` (budgeted: ${diff.text.length} of ${diff.totalChars} characters)` : ''}`,
        '',
        '```diff',
        stripInvisible(diff.text, { mark: true }),
        '```',
        context ? `\n## Changed files at head\n\n${context}` : ''
    ].join('\n');
    // whatever is left (paths, names) loses its invisible characters too; the markers stay visible
    const text = stripInvisible(user);
    return { system, tools, messages: [{ role: 'user', content: [{ type: 'text', text }] }] };
}
/** Appends the invalid answer and one repair request that quotes the validation errors back. */
function askForRepair(messages, content, errors) {
    messages.push({
        role: 'assistant',
        content: content.length ? content : [{ type: 'text', text: '(empty)' }]
    });
    const call = content.find(b => b.type === 'tool_use' && b.name === REVIEW_TOOL);
    const repair = `Your verdict does not match the submit_review schema:\n${errors.map(e => `- ${e}`).join('\n')}\nCall submit_review again with a corrected, complete verdict.`;
    messages.push({
        role: 'user',
        content: call && call.type === 'tool_use'
            ? [{ type: 'tool_result', tool_use_id: call.id, content: repair, is_error: true }]
            : [{ type: 'text', text: repair }]
    });
}
async function acceptVerdict(deps, input, verdict) {
    const { pull, git } = input;
    const { findings, dropped } = await locate(verdict, git, pull.headSha, deps.threshold);
    if (dropped)
        deps.log.info(`review: dropped ${dropped} finding(s) citing code that is not in ${pull.headSha.slice(0, 7)}`);
    return {
        decision: verdict.decision,
        summary: verdict.summary,
        findings,
        failedCriteria: verdict.failedCriteria,
        passedCriteria: verdict.passedCriteria,
        requiredRework: verdict.requiredRework,
        usage: deps.budget.usage,
        dropped
    };
}
/**
 * The AI review: one forced submit_review call, validated with ajv; an invalid verdict gets one
 * repair request, and then fails closed (NEEDS_DISCUSSION), never GO.
 */
async function aiReview(deps, input) {
    const { client, ai, budget } = deps;
    const { system, tools, messages } = await reviewPrompt(deps, input);
    const validate = createVerdictValidator();
    const promptChars = JSON.stringify({ system, tools, messages }).length;
    let lastErrors = [];
    for (let attempt = 0; attempt < 2; attempt++) {
        const chars = promptChars + (attempt ? JSON.stringify(messages.slice(1)).length : 0);
        if (!budget.allows(ai.reviewModel, chars, ai_reviewer_MAX_TOKENS)) {
            return {
                ...failClosed('the max-cost-usd budget does not allow another review call', budget),
                budgetExhausted: true
            };
        }
        const response = await client.create({
            model: ai.reviewModel,
            maxTokens: ai_reviewer_MAX_TOKENS,
            system,
            tools,
            messages,
            toolChoice: { type: 'tool', name: REVIEW_TOOL }
        });
        budget.record(response.usage);
        const call = response.content.find(b => b.type === 'tool_use' && b.name === REVIEW_TOOL);
        const checked = call && call.type === 'tool_use'
            ? validate(call.input)
            : { ok: false, errors: ['no submit_review tool call in the answer'] };
        if (checked.ok)
            return acceptVerdict(deps, input, checked.verdict);
        lastErrors = checked.errors;
        deps.log.warning(`review: the verdict is invalid (${lastErrors.slice(0, 3).join('; ')}); asking once for a repair`);
        askForRepair(messages, response.content, lastErrors);
    }
    return failClosed(`the verdict was still invalid after one repair: ${lastErrors.slice(0, 5).join('; ')}`, budget);
}

// EXTERNAL MODULE: ./src/model/provider.ts
var model_provider = __webpack_require__(94676);
// EXTERNAL MODULE: ./node_modules/@anthropic-ai/sdk/client.mjs + 60 modules
var client = __webpack_require__(2968);
;// CONCATENATED MODULE: ./src/model/anthropic.ts


const SERVICE = {
    anthropic: 'The Anthropic API',
    bedrock: 'Amazon Bedrock',
    vertex: 'Vertex AI'
};
/** What to check when the service refuses the credentials (401) or the model (403). */
function credentialsHint(provider, model) {
    switch (provider) {
        case 'anthropic':
            return {
                401: "The Anthropic API rejected the key (401): check the secret passed as 'anthropic-api-key'.",
                403: `The Anthropic API key may not use ${model} (403): check the key's workspace and model access.`
            };
        case 'bedrock':
            return {
                401: 'Amazon Bedrock rejected the AWS credentials (401): check the aws-actions/configure-aws-credentials step (or AWS_BEARER_TOKEN_BEDROCK).',
                403: `Amazon Bedrock refused ${model} (403): check that the AWS credentials are valid, that the role may call bedrock:InvokeModel on it, and that access to the model is enabled in the region ('aws-region').`
            };
        case 'vertex':
            return {
                401: 'Vertex AI rejected the Google credentials (401): check the google-github-actions/auth step.',
                403: `Vertex AI refused ${model} (403): check that the service account has roles/aiplatform.user in 'vertex-project-id' and that the model is enabled in Model Garden.`
            };
    }
}
const MODEL_IDS = {
    anthropic: '',
    bedrock: ' Bedrock model ids look like us.anthropic.claude-sonnet-4-6-v1:0 and must be available in the region.',
    vertex: " Vertex model ids look like claude-sonnet-4-6 or claude-sonnet-4-5@20250929 and must be available in 'vertex-region'."
};
/** Turns an SDK error into what the user must do about it. */
function explainModelError(e, model, provider = 'anthropic') {
    const service = SERVICE[provider];
    if (e instanceof client/* Anthropic */.N.AuthenticationError) {
        return new Error(credentialsHint(provider, model)[401]);
    }
    if (e instanceof client/* Anthropic */.N.PermissionDeniedError) {
        return new Error(credentialsHint(provider, model)[403]);
    }
    if (e instanceof client/* Anthropic */.N.NotFoundError) {
        return new Error(`The model '${model}' does not exist (404): check 'review-model' and 'fix-model'.${MODEL_IDS[provider]}`);
    }
    if (e instanceof client/* Anthropic */.N.RateLimitError) {
        return new Error(`${service} kept rate-limiting the requests (429) after retries; re-run the workflow later or lower the load.`);
    }
    if (e instanceof client/* Anthropic */.N.APIError && (e.status === 529 || e.status === 503)) {
        return new Error(`${service} stayed overloaded (${e.status}) after retries; re-run the workflow later.`);
    }
    if (e instanceof client/* Anthropic */.N.APIConnectionTimeoutError) {
        return new Error(`${service} did not answer in time; raise review-timeout-minutes or fix-timeout-minutes, or re-run.`);
    }
    if (e instanceof client/* Anthropic */.N.APIError) {
        const cause = e.cause instanceof Error ? ` (${e.cause.message})` : '';
        return new Error(`${service} failed (${e.status ?? 'no status'}): ${e.message}${cause}`);
    }
    return e instanceof Error ? e : new Error(String(e));
}
/** Retries and timeout shared by every provider's SDK client. */
function sdkOptions(timeoutMs) {
    // 429, 529 and connection errors are retried with backoff (honouring retry-after)
    return { maxRetries: 4, timeout: timeoutMs };
}
/** The ModelClient port over any SDK client: request and response mapping, errors explained. */
function messagesClient(client, provider = 'anthropic') {
    return {
        async create(req) {
            try {
                const response = await client.messages.create({
                    model: req.model,
                    max_tokens: req.maxTokens,
                    system: req.system,
                    messages: req.messages,
                    tools: req.tools,
                    ...(req.toolChoice ? { tool_choice: req.toolChoice } : {})
                }, { signal: req.signal });
                const content = [];
                for (const block of response.content) {
                    if (block.type === 'text')
                        content.push({ type: 'text', text: block.text });
                    else if (block.type === 'tool_use')
                        content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
                }
                return {
                    content,
                    stopReason: response.stop_reason ?? 'end_turn',
                    usage: toUsage(req.model, response.usage)
                };
            }
            catch (e) {
                throw explainModelError(e, req.model, provider);
            }
        }
    };
}
function createAnthropicClient(options) {
    return messagesClient(new client/* Anthropic */.N({
        apiKey: options.apiKey,
        baseURL: options.baseUrl,
        ...sdkOptions(options.timeoutMs)
    }));
}

;// CONCATENATED MODULE: ./src/model/providers.ts

/**
 * The SDK client of the resolved provider, behind the ModelClient port. Bedrock's and Vertex's SDKs
 * (with the AWS SDK and google-auth-library behind them) are imported on the first call only, so
 * runs on the Anthropic API, and gates-only runs, never load them.
 *
 * Credentials are left to each SDK's default chain: for Bedrock AWS_BEARER_TOKEN_BEDROCK, else SigV4
 * with the AWS credential provider chain (environment keys, web identity, profile, container); for
 * Vertex Google Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS).
 */
function createModelClient(provider, timeoutMs) {
    if (provider.name === 'anthropic') {
        return createAnthropicClient({ apiKey: provider.apiKey, baseUrl: provider.baseUrl, timeoutMs });
    }
    let loaded;
    return {
        async create(request) {
            loaded ??= load(provider, timeoutMs).catch((e) => {
                loaded = undefined;
                throw explainModelError(e, request.model, provider.name);
            });
            return (await loaded).create(request);
        }
    };
}
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
async function load(provider, timeoutMs) {
    switch (provider.name) {
        case 'bedrock': {
            const { AnthropicBedrock } = await __webpack_require__.e(/* import() */ 820).then(__webpack_require__.bind(__webpack_require__, 41820));
            return messagesClient(new AnthropicBedrock({
                awsRegion: provider.awsRegion,
                baseURL: provider.baseUrl,
                ...sdkOptions(timeoutMs)
            }), 'bedrock');
        }
        case 'vertex': {
            const [{ AnthropicVertex }, { GoogleAuth }] = await Promise.all([
                Promise.all(/* import() */[__webpack_require__.e(492), __webpack_require__.e(33)]).then(__webpack_require__.bind(__webpack_require__, 82033)),
                __webpack_require__.e(/* import() */ 492).then(__webpack_require__.t.bind(__webpack_require__, 492, 23))
            ]);
            return messagesClient(new AnthropicVertex({
                projectId: provider.projectId,
                region: provider.region,
                baseURL: provider.baseUrl,
                // The SDK's own GoogleAuth would look the project up (gcloud, the GCE metadata server, the
                // Resource Manager API) although it is known; given here, only the token is fetched.
                googleAuth: new GoogleAuth({
                    scopes: CLOUD_PLATFORM_SCOPE,
                    projectId: provider.projectId
                }),
                ...sdkOptions(timeoutMs)
            }), 'vertex');
        }
    }
}

;// CONCATENATED MODULE: ./src/model/agents.ts







/** The reviewer and fixer of one iteration, sharing one budget and one client. */
function createAiAgents(settings, log, client) {
    const { ai } = settings;
    for (const model of new Set([ai.reviewModel, ai.fixModel])) {
        if (!priceOf(model).known)
            log.warning(`No published price is known for '${model}'; costs are counted at the highest listed price.`);
    }
    const provider = ai.provider ?? {
        name: 'anthropic',
        apiKey: ai.apiKey,
        baseUrl: ai.baseUrl
    };
    if (!client)
        log.info(`Claude is reached through ${(0,model_provider/* describeProvider */.Fy)(provider)}.`);
    if (provider.name === 'bedrock') {
        for (const model of new Set([ai.reviewModel, ai.fixModel])) {
            if (!model.includes('anthropic.') && !model.startsWith('arn:'))
                log.warning(`'${model}' does not look like a Bedrock model id (such as us.anthropic.claude-sonnet-4-6-v1:0); set review-model and fix-model to ids enabled in ${provider.awsRegion}.`);
        }
    }
    const model = client ??
        createModelClient(provider, Math.max(ai.reviewTimeoutMinutes, ai.fixTimeoutMinutes) * 60_000);
    let budget;
    return {
        async review({ pull, state, git, gates }) {
            budget = new Budget(state.totals.costUsd, ai.maxCostUsd);
            return aiReview({ client: model, ai, threshold: settings.severityThreshold, budget, log }, { pull, state, git, gates });
        },
        async fix({ review, workspace }) {
            budget ??= new Budget(0, ai.maxCostUsd);
            const before = budget.usage;
            const result = await aiFix({
                client: model,
                ai,
                threshold: settings.severityThreshold,
                budget,
                log,
                now: () => Date.now()
            }, {
                findings: review.findings,
                requiredRework: review.verdict?.requiredRework ?? [],
                tools: {
                    root: workspace.git.root,
                    protectedPaths: settings.protectedPaths,
                    gates: settings.gates,
                    runner: workspace.runner,
                    cwd: workspace.cwd,
                    env: workspace.env,
                    secrets: workspace.secrets,
                    sandboxed: workspace.sandboxed,
                    timeoutMs: settings.commandTimeoutMinutes * 60_000,
                    findingIds: new Set(review.findings.map(f => f.id))
                }
            });
            log.info(`fixer: ${result.stopReason} after ${result.turns} turn(s), ${result.disputes.length} dispute(s)`);
            return {
                disputes: result.disputes,
                refusals: result.refusals,
                usage: (0,loop_usage/* usageSince */.eR)(budget.usage, before),
                transcript: result.transcript,
                stopReason: result.stopReason,
                error: result.error
            };
        }
    };
}


/***/ })

};
