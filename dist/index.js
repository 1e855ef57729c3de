import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 33566:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   AL: () => (/* binding */ prNumberFromPayload),
/* harmony export */   RT: () => (/* binding */ readPayloadFile),
/* harmony export */   uv: () => (/* binding */ prNumberFromInput)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);

/**
 * The pull request an event names: the pull_request payload's number, or the workflow_dispatch
 * input `pr-number` (or `pr_number`). Shared by the start-up prefetch and the run context, so both
 * read the same PR. Kept free of other imports: the prefetch loads it before anything else.
 */
function prNumberFromPayload(payload) {
    if (typeof payload !== 'object' || payload === null)
        return undefined;
    const p = payload;
    if (typeof p.pull_request?.number === 'number')
        return p.pull_request.number;
    const raw = p.inputs?.['pr-number'] ?? p.inputs?.['pr_number'];
    if (typeof raw === 'string' && /^\d+$/.test(raw.trim()))
        return Number(raw.trim());
    if (typeof raw === 'number')
        return raw;
    return undefined;
}
/** The `pr-number` input as the runner passes it (INPUT_PR-NUMBER), when it is a number. */
function prNumberFromInput(raw) {
    const input = (raw ?? '').trim();
    return /^\d+$/.test(input) && Number(input) > 0 ? Number(input) : undefined;
}
/** The event payload at GITHUB_EVENT_PATH; throws when it cannot be read. */
function readPayloadFile(path) {
    const parsed = JSON.parse((0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
}


/***/ }),

/***/ 57378:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Au: () => (/* binding */ commandsFor),
/* harmony export */   BK: () => (/* binding */ helpText),
/* harmony export */   D3: () => (/* binding */ buttonsFor),
/* harmony export */   RM: () => (/* binding */ parseCommand),
/* harmony export */   eP: () => (/* binding */ buttonCommand),
/* harmony export */   en: () => (/* binding */ BUTTONS)
/* harmony export */ });
/* unused harmony exports COMMAND_NAMES, MAX_CONTINUE */
/* harmony import */ var _transitions_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(56274);
/**
 * What a human can tell the loop: `/review-loop <command>` at the start of a line of a PR
 * conversation comment or a review body (case-insensitive), or a button of the loop's check run.
 * Pure: parsing, and which commands fit the loop's state.
 */

const COMMAND_NAMES = (/* unused pure expression or super */ null && ([
    'status',
    'retry',
    'continue',
    'stop',
    'approve',
    'fix',
    'dismiss',
    'help'
]));
/** The most iterations one `continue` may add. */
const MAX_CONTINUE = 20;
/** The reason or instructions kept from a command (the state keeps them short). */
const MAX_TEXT = 500;
/** At the start of a line, indented less than a Markdown code block (four spaces). */
const PREFIX = /^ {0,3}\/review-loop(?=\s|$)(.*)$/i;
function clipText(text) {
    const one = text.replace(/\s+/g, ' ').trim();
    return one.length > MAX_TEXT ? `${one.slice(0, MAX_TEXT - 1)}…` : one;
}
/** One command line's words after `/review-loop`. */
function parseWords(rest) {
    const [word = 'help', ...more] = rest.trim().split(/\s+/).filter(Boolean);
    const text = clipText(more.join(' '));
    switch (word.toLowerCase()) {
        case 'retry':
            return { name: 'retry' };
        case 'status':
        case 'stop':
        case 'help':
            return { name: word.toLowerCase() };
        case 'continue': {
            if (!text)
                return { name: 'continue' };
            const n = /^\d+$/.test(more[0] ?? '') ? Number(more[0]) : NaN;
            if (n >= 1 && n <= MAX_CONTINUE)
                return { name: 'continue', iterations: n };
            return {
                name: 'invalid',
                error: `\`continue\` takes a number of iterations from 1 to ${MAX_CONTINUE}, as in \`/review-loop continue 2\`, or none for the cap.`
            };
        }
        case 'approve':
            return { name: 'approve', reason: text };
        case 'fix':
            return { name: 'fix', instructions: text };
        case 'dismiss': {
            const id = (more[0] ?? '').toUpperCase();
            if (!/^RL-[0-9A-Z]{1,60}$/.test(id))
                return {
                    name: 'invalid',
                    error: '`dismiss` needs the id of a finding, as shown in the review-loop comment: `/review-loop dismiss RL-0123456789 reason`.'
                };
            return {
                name: 'dismiss',
                id: `RL-${id.slice(3).toLowerCase()}`,
                reason: clipText(more.slice(1).join(' '))
            };
        }
        default:
            return {
                name: 'invalid',
                error: `\`${word.slice(0, 40).replace(/`/g, "'")}\` is not a review-loop command.`
            };
    }
}
/**
 * The first `/review-loop` command of a comment or review body: a line that starts with it, outside
 * code blocks and quotes. Undefined when there is none.
 */
function parseCommand(body) {
    let fenced = false;
    for (const line of body.split(/\r?\n/)) {
        if (/^[ \t]*(```|~~~)/.test(line))
            fenced = !fenced;
        if (fenced)
            continue;
        const match = PREFIX.exec(line);
        if (match)
            return parseWords(match[1] ?? '');
    }
    return undefined;
}
/** Identifiers of the check run's buttons (at most 20 characters, GitHub's limit). */
const BUTTONS = {
    retry: { label: 'Retry', description: 'Review the head again now' },
    continue: { label: 'Continue', description: 'More iterations, as a new round' },
    approve: { label: 'Approve anyway', description: 'GO as is, recorded as your call' },
    stop: { label: 'Stop', description: 'Stop the loop (as the stop label)' }
};
/** A check-run button as the command it stands for. */
function buttonCommand(identifier, login) {
    switch (identifier) {
        case 'retry':
            return { name: 'retry' };
        case 'stop':
            return { name: 'stop' };
        case 'continue':
            return { name: 'continue' };
        case 'approve':
            return { name: 'approve', reason: `approved with the check run's button by @${login}` };
        default:
            return undefined;
    }
}
/** The buttons that fit the loop's state (GitHub shows at most three). */
function buttonsFor(status) {
    if (status === 'running')
        return ['stop'];
    if (status === 'go' || status === 'closed' || status === 'merged')
        return [];
    return _transitions_js__WEBPACK_IMPORTED_MODULE_0__/* .CONTINUABLE */ .t0.includes(status) ? ['retry', 'continue', 'approve'] : ['retry', 'approve'];
}
/** The commands that fit the loop's state, for the comment's "What you can do" line. */
function commandsFor(state) {
    const status = state?.status;
    if (status === 'closed' || status === 'merged')
        return [];
    const reviewed = Boolean(state?.iterations.length);
    const can = ['status'];
    if (!status || (0,_transitions_js__WEBPACK_IMPORTED_MODULE_0__/* .allowed */ .TQ)(status, 'human_retry'))
        can.push('retry');
    if (status && _transitions_js__WEBPACK_IMPORTED_MODULE_0__/* .CONTINUABLE */ .t0.includes(status))
        can.push('continue [N]');
    if (status && status !== 'stopped')
        can.push('stop');
    if (!status || (0,_transitions_js__WEBPACK_IMPORTED_MODULE_0__/* .allowed */ .TQ)(status, 'human_approve'))
        can.push('approve [reason]');
    if (reviewed)
        can.push('fix [instructions]', 'dismiss RL-… [reason]');
    can.push('help');
    return can;
}
/** The text of `/review-loop help`. */
function helpText() {
    return [
        'Commands (people with write access; at the start of a line of a comment or review):',
        '',
        '- `/review-loop status`: where the loop stands and what you can do',
        '- `/review-loop retry`: review the current head again now',
        `- \`/review-loop continue [N]\`: N more iterations (default the cap, at most ${MAX_CONTINUE}) as a new round, after the loop stopped short of GO`,
        '- `/review-loop stop`: stop the loop (adds the stop label)',
        '- `/review-loop approve [reason]`: end the loop as GO as it is, recorded as your call',
        '- `/review-loop fix [instructions]`: one fix of the latest review, with your instructions',
        '- `/review-loop dismiss RL-… [reason]`: settle a finding as won’t-fix; it no longer blocks',
        '- `/review-loop help`: this list',
        '',
        'A review that requests changes is fixed in the next iteration, and its threads are answered.'
    ].join('\n');
}


/***/ }),

/***/ 82045:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Cl: () => (/* binding */ routeEvent),
/* harmony export */   sy: () => (/* binding */ ROUTED_EVENTS)
/* harmony export */ });
/* unused harmony export PR_ACTIONS */
/* harmony import */ var _commands_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(57378);
/**
 * The router: one event in, one intent out. Every run starts here: a PR event or a dispatch asks
 * for a review; a comment, a review or a check-run button is a human speaking to the loop.
 */

/**
 * pull_request actions that start an iteration; `closed` only ends a running loop's comment as
 * closed or merged (the plan skips a closed PR).
 */
const PR_ACTIONS = [
    'opened',
    'synchronize',
    'reopened',
    'ready_for_review',
    'closed'
];
const obj = (v) => (typeof v === 'object' && v !== null ? v : {});
const num = (v) => typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
const str = (v) => (typeof v === 'string' ? v : '');
function requester(user) {
    const u = obj(user);
    return { login: str(u['login']), type: str(u['type']) || 'User' };
}
const skip = (notice) => ({ kind: 'skip', notice });
const botNotice = (who) => skip(`${who.login || 'The sender'} is a bot: review-loop takes commands and reviews from people only.`);
function onPullRequest(event) {
    if (!PR_ACTIONS.includes(event.action ?? '')) {
        return {
            kind: 'skip',
            notice: `review-loop runs on pull_request ${PR_ACTIONS.join('/')}; '${event.action ?? 'unknown'}' needs no review.`
        };
    }
    const pr = event.eventPrNumber ?? event.inputPrNumber;
    if (!pr)
        return { kind: 'skip', notice: 'The pull_request event names no pull request.' };
    return { kind: 'review', pr };
}
function onDispatch(event) {
    const pr = event.inputPrNumber ?? event.eventPrNumber;
    if (pr)
        return { kind: 'review', pr };
    return {
        kind: 'skip',
        notice: "workflow_dispatch without a pull request: give the workflow a 'pr-number' input and pass it to the action (pr-number: ${{ inputs.pr-number }})."
    };
}
/** A comment on the PR's conversation: a command, or nothing. Edited comments never count again. */
function onIssueComment(event) {
    const p = obj(event.payload);
    const issue = obj(p['issue']);
    const comment = obj(p['comment']);
    if (event.action !== 'created')
        return skip(`A ${event.action ?? 'changed'} comment does not trigger review-loop again; post a new one.`);
    const pr = num(issue['number']);
    if (!pr || !issue['pull_request'])
        return skip('The comment is on an issue, not a pull request.');
    const command = (0,_commands_js__WEBPACK_IMPORTED_MODULE_0__/* .parseCommand */ .RM)(str(comment['body']));
    const id = num(comment['id']);
    if (!command || !id)
        return skip('The comment holds no /review-loop command.');
    const from = requester(comment['user']);
    if (from.type === 'Bot')
        return botNotice(from);
    return { kind: 'command', pr, command, from, via: 'comment', key: `c${id}`, commentId: id };
}
/** A submitted review: a command in its body, or feedback to fix. */
function onReview(event) {
    const p = obj(event.payload);
    const review = obj(p['review']);
    const pr = num(obj(p['pull_request'])['number']);
    if (event.action !== 'submitted' || !pr)
        return skip(`review-loop acts on submitted reviews; '${event.action ?? 'unknown'}' is not one.`);
    const from = requester(review['user']);
    if (from.type === 'Bot')
        return botNotice(from);
    const command = (0,_commands_js__WEBPACK_IMPORTED_MODULE_0__/* .parseCommand */ .RM)(str(review['body']));
    const id = num(review['id']);
    if (command && id)
        return { kind: 'command', pr, command, from, via: 'review', key: `r${id}` };
    if (str(review['state']).toLowerCase() === 'approved')
        return skip('An approving review asks for no change.');
    return { kind: 'feedback', pr, from };
}
/** A new inline review comment: feedback to fix (replies in a thread included). */
function onReviewComment(event) {
    const p = obj(event.payload);
    const pr = num(obj(p['pull_request'])['number']);
    if (event.action !== 'created' || !pr)
        return skip(`review-loop acts on new review comments; '${event.action ?? 'unknown'}' is not one.`);
    const from = requester(obj(p['comment'])['user']);
    if (from.type === 'Bot')
        return botNotice(from);
    return { kind: 'feedback', pr, from };
}
/** A click on one of the check run's buttons (`requested_action`). */
function onCheckRun(event) {
    const p = obj(event.payload);
    if (event.action !== 'requested_action')
        return skip(`review-loop acts on check_run requested_action; '${event.action ?? 'unknown'}' is not one.`);
    const run = obj(p['check_run']);
    const pulls = Array.isArray(run['pull_requests']) ? run['pull_requests'] : [];
    // the loop's external id starts with its PR's number (a fork's PR is not in pull_requests, and
    // a head shared by two PRs lists both)
    const pr = num(Number(/^(\d+):/.exec(str(run['external_id']))?.[1])) ?? num(obj(pulls[0])['number']);
    const from = requester(p['sender']);
    const command = (0,_commands_js__WEBPACK_IMPORTED_MODULE_0__/* .buttonCommand */ .eP)(str(obj(p['requested_action'])['identifier']), from.login);
    if (!pr || !command)
        return skip('The check run button names no pull request or no action review-loop knows.');
    if (from.type === 'Bot')
        return botNotice(from);
    const key = `b${event.runId ?? '0'}`;
    return { kind: 'command', pr, command, from, via: 'button', key, checkName: str(run['name']) };
}
const ROUTES = {
    pull_request: onPullRequest,
    pull_request_target: onPullRequest,
    workflow_dispatch: onDispatch,
    issue_comment: onIssueComment,
    pull_request_review: onReview,
    pull_request_review_comment: onReviewComment,
    check_run: onCheckRun
};
/** The events the action acts on. */
const ROUTED_EVENTS = Object.keys(ROUTES);
function routeEvent(event) {
    const route = Object.hasOwn(ROUTES, event.eventName) ? ROUTES[event.eventName] : undefined;
    if (route)
        return route(event);
    return {
        kind: 'skip',
        notice: `review-loop does nothing on '${event.eventName || 'unknown'}' events; trigger it on ${ROUTED_EVENTS.join(', ')}.`
    };
}


/***/ }),

/***/ 56274:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   TQ: () => (/* binding */ allowed),
/* harmony export */   kY: () => (/* binding */ transition),
/* harmony export */   t0: () => (/* binding */ CONTINUABLE),
/* harmony export */   tv: () => (/* binding */ needsHuman)
/* harmony export */ });
/* unused harmony exports LOOP_EVENTS, ACTIONS, TRANSITIONS */
/* harmony import */ var _types_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(96539);

/**
 * The loop's transition table: state × event → next state and what the run does next. It is the
 * one place that says where the loop goes; `src/loop/README.md` shows it as a table
 * (`npm run docs` writes it there) and a test checks every cell against the code.
 */
const LOOP_EVENTS = (/* unused pure expression or super */ null && ([
    /** A human put the stop label on the PR. */
    'stop_label',
    /** A head this round has not reviewed yet (a push, a dispatch, a human commit). */
    'new_head',
    /** The head was reviewed already (a re-run, a duplicate trigger). */
    'head_reviewed',
    /** The fixer disputed findings without changing code: the same head gets one re-review. */
    'disputes_to_weigh',
    /** The round used every iteration of its cap before this head came. */
    'round_used_up',
    /** The review said GO. */
    'review_go',
    /** The reviewer needs a human to decide. */
    'review_needs_discussion',
    /** The budget allowed no review call. */
    'review_unaffordable',
    /** NO_GO at the last iteration of the round. */
    'no_go_at_cap',
    /** NO_GO with a blocker raised again after a fix attempt (its second sighting). */
    'no_go_repeated_blocker',
    /** NO_GO on a tree the loop reviewed before: the fixes go round in circles. */
    'no_go_oscillating',
    /** NO_GO with the budget spent. */
    'no_go_budget_spent',
    /** NO_GO and nothing can fix (no fixer, or a fork PR). */
    'no_go_no_fixer',
    /** NO_GO: the fixers get their turn. */
    'no_go',
    /** The fix was pushed. */
    'fix_pushed',
    /** The fixer disputed findings and changed nothing, for the first time on this head. */
    'fix_disputed',
    /** The fixer disputed again on a head that was re-reviewed for its disputes. */
    'fix_disputed_again',
    /** The fixers changed nothing. */
    'fix_no_changes',
    /** The budget stopped the AI fixer before it changed anything. */
    'fix_budget_spent',
    /** The branch moved during the run: the fix was kept as a patch, the new head comes next. */
    'fix_branch_moved',
    /** The push failed: the fix was kept as a patch. */
    'fix_push_failed',
    /**
     * The previous run died before its push was confirmed and the commit is not on the branch: the
     * head it reviewed is reviewed again, as the next counted iteration.
     */
    'fix_interrupted',
    /** The PR was closed while the loop ran. */
    'pr_closed',
    /** The PR was merged while the loop ran. */
    'pr_merged',
    /** A maintainer asked to review the head again now (`retry`, or the Retry button). */
    'human_retry',
    /** A maintainer gave the ended loop more iterations (`continue [N]`, or the Continue button). */
    'human_continue',
    /** A maintainer asked for one fix of the latest review (`fix [instructions]`). */
    'human_fix',
    /** A maintainer's review asked for changes: its comments are fixed next. */
    'human_feedback',
    /** A maintainer approved as is (`approve [reason]`, or the Approve anyway button). */
    'human_approve'
]));
/**
 * What the run does after the transition: `review` the head, `fix` it, `retrigger` (save, then
 * start the next iteration), `wait` (save; the next push starts it), `escalate` (end and call a
 * human), `end` (end, no human needed), `skip` (nothing to do: a notice).
 */
const ACTIONS = (/* unused pure expression or super */ null && (['review', 'fix', 'retrigger', 'wait', 'escalate', 'end', 'skip']));
/** Ending in these statuses calls a human: the label, the reviewers, the mention. */
const NEEDS_HUMAN = [
    'max_iterations',
    'needs_discussion',
    'stalled',
    'budget_exhausted'
];
function needsHuman(status) {
    return NEEDS_HUMAN.includes(status);
}
const finish = (to) => ({
    to,
    then: needsHuman(to) ? 'escalate' : 'end'
});
/** While the loop runs every event can come, but a `continue`: the loop has not stopped. */
const WHILE_RUNNING = {
    stop_label: finish('stopped'),
    new_head: { to: 'running', then: 'review' },
    head_reviewed: { to: 'running', then: 'skip' },
    disputes_to_weigh: { to: 'running', then: 'review' },
    round_used_up: { to: 'running', then: 'skip' },
    review_go: finish('go'),
    review_needs_discussion: finish('needs_discussion'),
    review_unaffordable: finish('budget_exhausted'),
    no_go_at_cap: finish('max_iterations'),
    no_go_repeated_blocker: finish('stalled'),
    no_go_oscillating: finish('stalled'),
    no_go_budget_spent: finish('budget_exhausted'),
    no_go_no_fixer: finish('stalled'),
    no_go: { to: 'running', then: 'fix' },
    fix_pushed: { to: 'running', then: 'retrigger' },
    fix_disputed: { to: 'running', then: 'retrigger' },
    fix_disputed_again: finish('needs_discussion'),
    fix_no_changes: finish('stalled'),
    fix_budget_spent: finish('budget_exhausted'),
    fix_branch_moved: { to: 'running', then: 'wait' },
    fix_push_failed: finish('error'),
    fix_interrupted: { to: 'running', then: 'review' },
    pr_closed: finish('closed'),
    pr_merged: finish('merged'),
    human_retry: { to: 'running', then: 'review' },
    human_fix: { to: 'running', then: 'fix' },
    human_feedback: { to: 'running', then: 'fix' },
    human_approve: finish('go')
};
/** The ends a maintainer may `continue` from: the loop stopped short of GO without an error. */
const CONTINUABLE = [
    'max_iterations',
    'stalled',
    'needs_discussion',
    'budget_exhausted',
    'stopped'
];
/** After the loop ended only a human acts: a new head starts a new round, the label stops it. */
function afterEnd(status) {
    const gone = status === 'closed' || status === 'merged';
    const again = { to: 'running', newRound: true };
    return {
        stop_label: status === 'stopped' ? { to: 'stopped', then: 'skip' } : finish('stopped'),
        new_head: { ...again, then: 'review' },
        head_reviewed: { to: status, then: 'skip' },
        pr_closed: { to: status, then: 'skip' },
        pr_merged: { to: status, then: 'skip' },
        // a human answers the ended loop; a closed or merged PR has nothing left to answer
        ...(gone
            ? {}
            : {
                human_retry: { ...again, then: 'review' },
                human_fix: { ...again, then: 'fix' },
                human_feedback: { ...again, then: 'fix' },
                ...(status === 'go' ? {} : { human_approve: finish('go') }),
                ...(CONTINUABLE.includes(status) ? { human_continue: { ...again, then: 'review' } } : {})
            })
    };
}
/** Whether `event` can happen while the loop is `status` (a human's command may not fit). */
function allowed(status, event) {
    return TRANSITIONS[status][event] !== undefined;
}
const TRANSITIONS = Object.fromEntries(_types_js__WEBPACK_IMPORTED_MODULE_0__/* .LOOP_STATUSES */ .gw.map(s => [s, s === 'running' ? WHILE_RUNNING : afterEnd(s)]));
/** The next state; an event that cannot happen in `status` is a bug, not a user error. */
function transition(status, event) {
    const next = TRANSITIONS[status][event];
    if (!next)
        throw new Error(`review-loop bug: '${event}' cannot happen while the loop is ${status}`);
    return next;
}


/***/ }),

/***/ 96539:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   R6: () => (/* binding */ CATEGORIES),
/* harmony export */   WF: () => (/* binding */ EARLIER_STATUSES),
/* harmony export */   Yv: () => (/* binding */ DECISIONS),
/* harmony export */   gw: () => (/* binding */ LOOP_STATUSES),
/* harmony export */   oC: () => (/* binding */ SEVERITIES)
/* harmony export */ });
/**
 * The loop's own types: what the core reasons about. Adapters map GitHub's, git's and the model
 * API's shapes to these; nothing here knows an SDK or a wire format.
 */
/** The one finding schema shared by every source: AI reviewer, gates and human review comments. */
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'suggestion'];
const CATEGORIES = [
    'security',
    'architecture',
    'logic',
    'style',
    'performance',
    'testing',
    'documentation'
];
const LOOP_STATUSES = [
    'running',
    'go',
    'max_iterations',
    'needs_discussion',
    'stalled',
    'budget_exhausted',
    'stopped',
    'error',
    /** The PR was closed, or merged, while the loop ran. */
    'closed',
    'merged'
];
const DECISIONS = ['GO', 'NO_GO', 'NEEDS_DISCUSSION'];
/** What the reviewer says about a finding of an earlier iteration. */
const EARLIER_STATUSES = [
    'fixed',
    'still_open',
    'dispute_accepted',
    'dispute_rejected'
];


/***/ }),

/***/ 42613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 20181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 35317:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("child_process");

/***/ }),

/***/ 49140:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("constants");

/***/ }),

/***/ 76982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 24434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 79896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 91943:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs/promises");

/***/ }),

/***/ 58611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 85675:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http2");

/***/ }),

/***/ 65692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 69278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 34589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 16698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 31421:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");

/***/ }),

/***/ 37540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 77598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 53053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 40610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 78474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 73024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 51455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 37067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 32467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 44708:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:https");

/***/ }),

/***/ 98995:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:module");

/***/ }),

/***/ 77030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 48161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 76760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1708:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:process");

/***/ }),

/***/ 41792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 80481:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:readline");

/***/ }),

/***/ 57075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 37830:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream/web");

/***/ }),

/***/ 46193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:string_decoder");

/***/ }),

/***/ 58500:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");

/***/ }),

/***/ 41692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 73136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 57975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 73429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 75919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 38522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 70857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 16928:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 83480:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("querystring");

/***/ }),

/***/ 2203:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("stream");

/***/ }),

/***/ 13193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 53557:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("timers");

/***/ }),

/***/ 64756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 52018:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tty");

/***/ }),

/***/ 87016:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("url");

/***/ }),

/***/ 39023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 28167:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("worker_threads");

/***/ }),

/***/ 43106:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("zlib");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		id: moduleId,
/******/ 		loaded: false,
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Flag the module as loaded
/******/ 	module.loaded = true;
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/node module decorator */
/******/ (() => {
/******/ 	__nccwpck_require__.nmd = (module) => {
/******/ 		module.paths = [];
/******/ 		if (!module.children) module.children = [];
/******/ 		return module;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __nccwpck_require__(37067);
// EXTERNAL MODULE: external "node:https"
var external_node_https_ = __nccwpck_require__(44708);
// EXTERNAL MODULE: ./src/loop/router.ts
var router = __nccwpck_require__(82045);
// EXTERNAL MODULE: ./src/action/event.ts
var action_event = __nccwpck_require__(33566);
;// CONCATENATED MODULE: ./src/action/prefetch.ts




function prNumber(env) {
    const input = (0,action_event/* prNumberFromInput */.uv)(env['INPUT_PR-NUMBER']);
    if (input)
        return input;
    try {
        return (0,action_event/* prNumberFromPayload */.AL)((0,action_event/* readPayloadFile */.RT)(env['GITHUB_EVENT_PATH'] ?? ''));
    }
    catch {
        return undefined; // no readable payload: the main path reports it
    }
}
/** The request-timeout-seconds input, read before the input parser loads (it checks it later). */
function requestTimeoutMs(env) {
    const seconds = Number((env['INPUT_REQUEST-TIMEOUT-SECONDS'] ?? '').trim());
    return Number.isInteger(seconds) && seconds >= 1 && seconds <= 600 ? seconds * 1000 : 30_000;
}
/**
 * Start-up: the first API call (GET the pull request) goes out at once on node:http, while the
 * action's modules (Octokit, ajv, the toolkit) load. Anything unusual is left to the main path,
 * which fetches again through Octokit with its retries and error messages.
 */
function prefetchPull(env) {
    const event = env['GITHUB_EVENT_NAME'] ?? '';
    if (!router/* ROUTED_EVENTS */.sy.includes(event))
        return undefined;
    const token = (env['INPUT_GITHUB-TOKEN'] ?? '').trim();
    const repository = env['GITHUB_REPOSITORY'] ?? '';
    const pr = prNumber(env);
    if (!token || !pr || !/^[\w.-]+\/[\w.-]+$/.test(repository))
        return undefined;
    const base = (env['GITHUB_API_URL'] ?? 'https://api.github.com').replace(/\/$/, '');
    const url = new URL(`${base}/repos/${repository}/pulls/${pr}`);
    let markSent = () => { };
    const sent = new Promise(resolve => {
        markSent = resolve;
        setTimeout(resolve, 100).unref();
    });
    const response = new Promise(resolve => {
        const send = url.protocol === 'http:' ? external_node_http_.request : external_node_https_.request;
        const req = send(url, {
            method: 'GET',
            headers: {
                authorization: `token ${token}`,
                accept: 'application/vnd.github+json',
                'x-github-api-version': '2022-11-28',
                'user-agent': 'review-loop'
            },
            timeout: requestTimeoutMs(env)
        }, res => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => {
                try {
                    resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
                }
                catch {
                    resolve(undefined);
                }
            });
            res.on('error', () => resolve(undefined));
        });
        req.on('timeout', () => req.destroy());
        req.on('error', () => {
            markSent();
            resolve(undefined);
        });
        req.on('finish', () => markSent());
        req.end();
    });
    return { pr, response, sent };
}

;// CONCATENATED MODULE: ./src/index.ts

async function fail(error) {
    const core = await Promise.all(/* import() */[__nccwpck_require__.e(119), __nccwpck_require__.e(659)]).then(__nccwpck_require__.bind(__nccwpck_require__, 91659));
    core.setFailed(error instanceof Error ? error.message : String(error));
}
function action() {
    // Start-up stays light: the first API request leaves before the action's modules are loaded.
    const prefetched = prefetchPull(process.env);
    // Loading the modules blocks the event loop, so they load once the request is on the wire.
    // The only place that turns an outcome or an error into a failed step.
    Promise.resolve(prefetched?.sent)
        .then(() => Promise.all(/* import() */[__nccwpck_require__.e(119), __nccwpck_require__.e(659), __nccwpck_require__.e(858), __nccwpck_require__.e(424), __nccwpck_require__.e(349)]).then(__nccwpck_require__.bind(__nccwpck_require__, 46349)))
        .then(({ run }) => run(prefetched))
        .then(failure => (failure ? fail(failure) : undefined))
        .catch(fail);
}
if (globalThis.__REVIEW_LOOP_CLI__) {
    void Promise.all(/* import() */[__nccwpck_require__.e(119), __nccwpck_require__.e(858), __nccwpck_require__.e(424), __nccwpck_require__.e(244)]).then(__nccwpck_require__.bind(__nccwpck_require__, 11244))
        .then(({ cli }) => cli(process.argv.slice(2)))
        .then(code => {
        process.exitCode = code;
    });
}
else {
    action();
}

