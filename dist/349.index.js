export const id = 349;
export const ids = [349];
export const modules = {

/***/ 46349:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  run: () => (/* binding */ run)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 11 modules
var core = __webpack_require__(91659);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/action/artifacts.ts
var artifacts = __webpack_require__(18089);
// EXTERNAL MODULE: ./src/action/context.ts
var context = __webpack_require__(40645);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
;// CONCATENATED MODULE: ./src/action/log.ts


/** The runner's log, through the toolkit: groups close with how long they took. */
function createActionsLog() {
    return {
        info: m => core.info(m),
        notice: m => core.notice(m),
        warning: m => core.warning(m),
        debug: m => core.debug(m),
        annotate(a) {
            const properties = {
                title: a.title,
                file: a.file,
                startLine: a.startLine,
                endLine: a.endLine,
                // the runner takes columns only on a one-line annotation, as the check-run API does
                ...(a.startColumn !== undefined && a.startLine === a.endLine
                    ? { startColumn: a.startColumn, endColumn: a.endColumn }
                    : {})
            };
            const say = a.level === 'failure' ? core.error : a.level === 'warning' ? core.warning : core.notice;
            say(a.message, properties);
        },
        verbatim(text) {
            // the runner's own escape: nothing between stop-commands and its token is a command
            const token = (0,external_node_crypto_.randomUUID)();
            core.info(`::stop-commands::${token}`);
            core.info(text);
            core.info(`::${token}::`);
        },
        async group(name, fn) {
            const started = Date.now();
            core.startGroup(name);
            try {
                return await fn();
            }
            finally {
                core.info(`${name}: done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
                core.endGroup();
            }
        }
    };
}

// EXTERNAL MODULE: ./src/loop/state.ts
var loop_state = __webpack_require__(59431);
// EXTERNAL MODULE: ./src/report/format.ts
var format = __webpack_require__(12011);
;// CONCATENATED MODULE: ./src/action/outputs.ts



/** Sets every output, so later steps can rely on them even after a skip. */
function setOutputs(outcome, maxIterations) {
    const state = outcome.state;
    const round = state ? (0,loop_state/* roundIterations */.je)(state) : [];
    const outputs = {
        status: state?.status ?? 'skipped',
        skipped: outcome.decision ? 'false' : 'true',
        verdict: outcome.decision ?? round[round.length - 1]?.decision ?? '',
        iteration: String(state ? (0,loop_state/* roundReviews */.sv)(state) : 0),
        'max-iterations': String(state?.maxIterations ?? maxIterations),
        findings: JSON.stringify(outcome.findings),
        'findings-count': String(outcome.findings.length),
        'reviewed-sha': outcome.reviewedSha ?? state?.lastReviewedSha ?? '',
        'head-sha': outcome.headSha ?? '',
        converged: String(state?.status === 'go'),
        'comment-url': outcome.commentUrl ?? '',
        'check-run-id': outcome.checkRunId ? String(outcome.checkRunId) : '',
        'review-json': outcome.reviewJson ?? '',
        'iterations-total': String(state?.iterations.length ?? 0),
        'total-tokens': String(state ? (0,format/* tokens */.LU)(state.totals) : 0),
        'total-cost-usd': (state?.totals.costUsd ?? 0).toFixed(4)
    };
    for (const [name, value] of Object.entries(outputs))
        core.setOutput(name, value);
}

// EXTERNAL MODULE: ./src/git/git.ts
var git = __webpack_require__(10308);
// EXTERNAL MODULE: ./src/github/octokit-adapter.ts + 3 modules
var octokit_adapter = __webpack_require__(35996);
// EXTERNAL MODULE: ./src/inputs.ts
var inputs = __webpack_require__(38422);
// EXTERNAL MODULE: ./src/run/stats.ts + 1 modules
var stats = __webpack_require__(28542);
// EXTERNAL MODULE: ./src/action/repo-config.ts
var repo_config = __webpack_require__(92799);
// EXTERNAL MODULE: ./src/process/sandbox.ts + 1 modules
var sandbox = __webpack_require__(65111);
// EXTERNAL MODULE: ./src/run/iteration.ts + 22 modules
var iteration = __webpack_require__(33107);
;// CONCATENATED MODULE: ./src/main.ts














/**
 * Wires the inputs, the run's context and one adapter per port into one iteration; returns the
 * message to fail the step with, if the loop ended in a fail-on state.
 */
async function run(prefetched) {
    const given = (name) => core.getInput(name);
    const connection = (0,inputs/* parseConnection */.C8)(given);
    core.setSecret(connection.githubToken);
    const ctx = (0,context/* readContext */.yI)(process.env);
    const log = createActionsLog();
    const github = (0,octokit_adapter/* createGitHubAdapter */.X3)({
        token: connection.githubToken,
        owner: ctx.owner,
        repo: ctx.repo,
        baseUrl: ctx.apiUrl,
        stateAuthor: connection.stateAuthor,
        requestTimeoutMs: connection.requestTimeoutSeconds * 1000,
        maxWaitSeconds: connection.maxWaitSeconds,
        prefetched,
        log
    });
    const mode = (0,inputs/* parseMode */.Zx)(given);
    if (mode.mode === 'stats')
        return reportStats(github, ctx, mode.pullRequests, log);
    // the repository's settings file, from the PR's base: the workflow's inputs override it
    const config = await (0,repo_config/* readRepoConfig */.bc)(github, await (0,repo_config/* settingsRef */.XL)(ctx, prefetched));
    const settings = (0,repo_config/* settingsFrom */.ms)(given, config, process.env);
    if (settings.ai.apiKey)
        core.setSecret(settings.ai.apiKey);
    if (settings.stateKey)
        core.setSecret(settings.stateKey);
    if (settings.checkRunButtons && !settings.stateAuthor)
        log.warning("check-run-buttons is on, but a click starts no workflow on a check run made with the workflow token (GitHub's rule): pass a GitHub App's token as github-token and its bot as state-author, or use the /review-loop commands.");
    const scratch = external_node_path_default().join(ctx.tempDir, 'review-loop-private');
    // The model SDK is loaded only when a model provider is configured.
    const ai = settings.ai.provider
        ? (await Promise.all(/* import() */[__webpack_require__.e(968), __webpack_require__.e(666)]).then(__webpack_require__.bind(__webpack_require__, 13666))).createAiAgents(settings, log)
        : undefined;
    const artifactsDir = settings.artifactsDir ?? external_node_path_default().join(ctx.tempDir, 'review-loop');
    const outcome = await (0,iteration/* runIteration */.r)({
        ai,
        settings,
        ctx,
        github,
        openGit: async (dir) => {
            await (0,promises_.mkdir)(scratch, { recursive: true });
            return (0,git/* createGit */.l)(dir, {
                token: settings.githubToken,
                // a transfer that stalls for as long as a GitHub request may take is given up and retried
                lowSpeed: { bytesPerSecond: 1000, seconds: settings.requestTimeoutSeconds },
                scratch,
                warn: message => log.warning(message)
            });
        },
        confine: (0,sandbox/* createConfinement */.tt)({
            mode: settings.sandbox,
            network: settings.sandboxNetwork,
            passthrough: settings.envPassthrough,
            tempDir: scratch,
            env: process.env,
            log
        }),
        artifacts: (0,artifacts/* createArtifactStore */.G)(artifactsDir, process.env, log, (0,context/* runUrl */.Vp)(ctx)),
        log,
        env: process.env,
        clock: { now: () => new Date() },
        writeSummary: async (markdown) => {
            if (process.env['GITHUB_STEP_SUMMARY'])
                await core.summary.addRaw(markdown).write();
        }
    });
    if (outcome.notice)
        core.notice(outcome.notice);
    setOutputs(outcome, settings.maxIterations);
    return outcome.failure;
}
/**
 * mode: stats: the loop analytics of the newest pull requests in the job summary (with Mermaid
 * charts) and the log; the states counted are those the token's identity wrote.
 */
async function reportStats(github, ctx, pullRequests, log) {
    const report = await (0,stats/* statsReport */.s)(github, {
        last: pullRequests,
        author: await github.whoAmI(),
        key: stateKey(),
        repository: `${ctx.owner}/${ctx.repo}`
    });
    for (const line of report.lines)
        log.info(line);
    if (process.env['GITHUB_STEP_SUMMARY'])
        await core.summary.addRaw(report.markdown).write();
    return undefined;
}
/** The state-key input, masked in the log (stats reads signed states with it). */
function stateKey() {
    const key = core.getInput('state-key').trim();
    if (key)
        core.setSecret(key);
    return key || undefined;
}


/***/ })

};
