export const id = 244;
export const ids = [244];
export const modules = {

/***/ 11244:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  cli: () => (/* binding */ cli)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/action/input-error.ts
var input_error = __webpack_require__(9229);
// EXTERNAL MODULE: ./src/config/config-file.ts + 1 modules
var config_file = __webpack_require__(8877);
// EXTERNAL MODULE: ./src/github/octokit-adapter.ts + 3 modules
var octokit_adapter = __webpack_require__(35996);
// EXTERNAL MODULE: ./src/run/stats.ts + 1 modules
var stats = __webpack_require__(28542);
;// CONCATENATED MODULE: ./package.json
const package_namespaceObject = {"rE":"0.1.0"};
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(57975);
;// CONCATENATED MODULE: ./src/cli/args.ts

const HELP = `review-loop: the review → fix loop of the review-loop GitHub Action, on a local repository.

Usage:
  review-loop [options]          review the current branch against its base, fix, review again
  review-loop stats [options]    loop analytics over the last pull requests of a GitHub repository
  review-loop --help | --version

Review options:
  --base BRANCH        the branch the current branch is compared with (default: main)
  --check 'NAME: CMD'  a check (the checks input); repeat for more
  --fix CMD            a fix command (the fix-commands input); repeat for more
  --max-iterations N   reviews before the loop stops (default 3)
  --max-cost-usd USD   the model budget for the whole loop
  --set INPUT=VALUE    any input of the action (for example --set severity-threshold=high); repeat
  --out DIR            where the comment, the check results and the artifacts go
                       (default: .git/review-loop/<time> of the repository)
  --dry-run            review only: no fix, no commit (works offline with checks alone)

  Settings are read as on GitHub: options, then .github/review-loop.yml of the base branch, then
  the defaults. With ANTHROPIC_API_KEY set, Claude reviews and fixes as well (or model-provider
  bedrock / vertex with their credentials). Fixes are committed on the current branch, never pushed.
  Exit status: 0 at GO, 1 when the loop ended in a fail-on state, 2 on a usage error.

Stats options:
  --repo OWNER/NAME    the repository (default: GITHUB_REPOSITORY)
  --last N             how many of the newest pull requests to read (default 50)
  --api-url URL        the REST API (default: GITHUB_API_URL or https://api.github.com)
  --summary FILE       also write the markdown report (with Mermaid charts) to FILE
  --state-author LOGIN whose state comments count (default github-actions[bot], the workflow token)
  The token is GITHUB_TOKEN (or GH_TOKEN), with pull-requests: read and issues: read; signed states
  need REVIEW_LOOP_STATE_KEY.
`;
class UsageError extends Error {
}
const OPTIONS = {
    base: { type: 'string' },
    check: { type: 'string', multiple: true },
    fix: { type: 'string', multiple: true },
    'max-iterations': { type: 'string' },
    'max-cost-usd': { type: 'string' },
    set: { type: 'string', multiple: true },
    out: { type: 'string' },
    'dry-run': { type: 'boolean' },
    repo: { type: 'string' },
    last: { type: 'string' },
    'api-url': { type: 'string' },
    summary: { type: 'string' },
    'state-author': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' }
};
/** The command line, read into typed options; a wrong one is a UsageError that says what to type. */
function parseCli(argv) {
    let parsed;
    try {
        parsed = (0,external_node_util_.parseArgs)({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    }
    catch (e) {
        throw new UsageError(`${e.message}. See review-loop --help.`);
    }
    const { values, positionals } = parsed;
    if (values.help)
        return { command: 'help' };
    if (values.version)
        return { command: 'version' };
    const [command = 'review', ...extra] = positionals;
    if (extra.length || !['review', 'stats'].includes(command))
        throw new UsageError(`Unknown command '${positionals.join(' ')}'. See review-loop --help.`);
    if (command === 'stats') {
        const last = Number(values.last ?? '50');
        if (!Number.isInteger(last) || last < 1 || last > 1000)
            throw new UsageError(`--last takes a number of pull requests from 1 to 1000, not '${values.last}'.`);
        return {
            command,
            repo: values.repo,
            last,
            apiUrl: values['api-url'],
            summary: values.summary,
            stateAuthor: values['state-author'] ?? 'github-actions[bot]'
        };
    }
    return {
        command: 'review',
        base: values.base ?? 'main',
        inputs: reviewInputs(values),
        out: values.out,
        dryRun: values['dry-run'] ?? false
    };
}
/** The review options as the action's inputs (`--set` for any of them). */
function reviewInputs(values) {
    const inputs = {};
    for (const pair of values.set ?? []) {
        const at = pair.indexOf('=');
        if (at < 1)
            throw new UsageError(`--set takes INPUT=VALUE (for example --set max-turns=10), not '${pair}'.`);
        inputs[pair.slice(0, at).trim()] = pair.slice(at + 1);
    }
    if (values.check?.length)
        inputs['checks'] = values.check.join('\n');
    if (values.fix?.length)
        inputs['fix-commands'] = values.fix.join('\n');
    if (values['max-iterations'])
        inputs['max-iterations'] = values['max-iterations'];
    if (values['max-cost-usd'])
        inputs['max-cost-usd'] = values['max-cost-usd'];
    return inputs;
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
// EXTERNAL MODULE: ./src/action/artifacts.ts
var artifacts = __webpack_require__(18089);
// EXTERNAL MODULE: ./src/action/repo-config.ts
var repo_config = __webpack_require__(92799);
// EXTERNAL MODULE: ./src/git/git.ts
var git_git = __webpack_require__(10308);
// EXTERNAL MODULE: ./src/process/sandbox.ts + 1 modules
var sandbox = __webpack_require__(65111);
// EXTERNAL MODULE: ./src/run/iteration.ts + 22 modules
var iteration = __webpack_require__(33107);
;// CONCATENATED MODULE: ./src/cli/local-github.ts


/** Who the local loop writes as: the author of its state comment. */
const LOCAL_LOGIN = 'review-loop[local]';
/**
 * GitHub's part of the loop on a local repository: the branch as a pull request, read from the
 * loop's clone's origin (a copy of the user's repository), the state comment in memory and in `<out>/comment.md`, check
 * runs in `<out>/checks.json`. Nothing leaves the machine; labels, reviewers and reactions have no
 * one to reach and do nothing.
 */
function createLocalGitHub(input) {
    const { git, out, record } = input;
    const save = (c) => {
        record.comment = c;
        (0,external_node_fs_.writeFileSync)(external_node_path_default().join(out, 'comment.md'), c.body);
        return c;
    };
    const nothing = async () => { };
    return {
        whoAmI: async () => LOCAL_LOGIN,
        async getPull() {
            const headSha = await git.remoteHead(input.pull.headRef);
            const baseSha = await git.remoteHead(input.pull.baseRef);
            if (!headSha || !baseSha)
                throw new Error(`${input.pull.headRef} or ${input.pull.baseRef} is gone`);
            return { ...input.pull, headSha, baseSha };
        },
        listComments: async () => (record.comment ? [record.comment] : []),
        createComment: async (_pr, body) => save({ id: 1, body, author: LOCAL_LOGIN, htmlUrl: external_node_path_default().join(out, 'comment.md') }),
        updateComment: async (id, body) => save({ id, body, author: LOCAL_LOGIN, htmlUrl: external_node_path_default().join(out, 'comment.md') }),
        async deleteComment() {
            record.comment = undefined;
        },
        async createCheckRun(check) {
            record.checkRuns.push(check);
            for (const a of check.annotations)
                input.log.annotate(a);
            (0,external_node_fs_.writeFileSync)(external_node_path_default().join(out, 'checks.json'), JSON.stringify(record.checkRuns, null, 2));
            return { id: record.checkRuns.length, htmlUrl: '' };
        },
        createCommitStatus: nothing,
        async dispatchWorkflow() {
            record.nextRequested = true;
            return {};
        },
        latestDispatchedRun: async () => undefined,
        readFile: async (file, ref) => git.show(ref ?? `origin/${input.pull.baseRef}`, file),
        recentPulls: async () => [],
        addLabels: nothing,
        removeLabel: nothing,
        requestReviewers: nothing,
        createReview: nothing,
        roleOf: async () => 'admin',
        react: async () => true,
        listReviews: async () => [],
        listReviewComments: async () => [],
        replyToReviewComment: nothing,
        resolveThreads: async () => 0
    };
}

;// CONCATENATED MODULE: ./src/cli/review.ts













/** A loop never takes more runs than this, whatever its settings say (a guard, not a cap). */
const MAX_RUNS = 60;
const gitOut = (cwd, args) => (0,external_node_child_process_.execFileSync)('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
/** The repository, its current branch and the base, checked before anything is copied. */
function localRepo(cwd, base) {
    let root;
    try {
        root = gitOut(cwd, ['rev-parse', '--show-toplevel']);
    }
    catch {
        throw new UsageError(`${cwd} is not inside a git repository: run review-loop in one.`);
    }
    let branch;
    try {
        branch = gitOut(root, ['symbolic-ref', '--short', 'HEAD']);
    }
    catch {
        throw new UsageError('HEAD is detached: check out the branch to review (git switch NAME).');
    }
    try {
        gitOut(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${base}^{commit}`]);
    }
    catch {
        throw new UsageError(`The base branch '${base}' does not exist here: name it with --base.`);
    }
    if (branch === base)
        throw new UsageError(`You are on the base branch '${base}': switch to the branch to review.`);
    return { root, branch, head: gitOut(root, ['rev-parse', 'HEAD']) };
}
/** The inputs given on the command line, refused where the action would refuse them in a file. */
function checkedInputs(inputs) {
    for (const name of Object.keys(inputs))
        if (!config_file/* SETTING_KEYS */.GS.includes(name))
            throw new UsageError(`--set ${name}: not an input review-loop takes on the command line (see its action.yml; secrets come from the environment, such as ANTHROPIC_API_KEY).`);
    return inputs;
}
/** The run's context as the loop reads it: a dispatch for "pull request" 1, the local branch. */
function localContext(work, checkout, run, repoName) {
    return {
        eventName: 'workflow_dispatch',
        payload: { inputs: { 'pr-number': '1' } },
        owner: 'local',
        repo: repoName,
        runId: String(run),
        runAttempt: 1,
        workflowFile: 'local',
        serverUrl: 'file://',
        apiUrl: '',
        workspace: checkout,
        tempDir: work,
        eventPrNumber: 1,
        actor: 'you'
    };
}
/**
 * The loop on the current branch, as the action runs it on a pull request: a copy of the repository
 * stands in for GitHub's (its branch is what the loop pushes to), the loop's clone is where checks
 * and fixers run, and the fixes are brought onto the user's branch by fast-forward at the end.
 */
async function reviewLocally(options, io) {
    const repo = localRepo(io.cwd, options.base);
    const common = external_node_path_default().resolve(repo.root, gitOut(repo.root, ['rev-parse', '--git-common-dir']));
    const out = options.out ?? external_node_path_default().join(common, 'review-loop', new Date().toISOString().replace(/[:.]/g, '-'));
    (0,external_node_fs_.mkdirSync)(out, { recursive: true });
    const work = (0,external_node_fs_.mkdtempSync)(external_node_path_default().join((0,external_node_os_.tmpdir)(), 'review-loop-local-'));
    try {
        const mirror = external_node_path_default().join(work, 'origin.git');
        const checkout = external_node_path_default().join(work, 'checkout');
        gitOut(work, ['clone', '-q', '--bare', '--no-hardlinks', repo.root, mirror]);
        gitOut(work, ['clone', '-q', '--branch', repo.branch, mirror, checkout]);
        const outcome = await loop(options, io, { repo, out, work, checkout });
        return { outcome, out, ...bringBack(repo, mirror, options.dryRun) };
    }
    finally {
        (0,external_node_fs_.rmSync)(work, { recursive: true, force: true });
    }
}
/** Every run of the loop, each one iteration, until it asks for no next run. */
async function loop(options, io, where) {
    const { log } = io;
    const scratch = external_node_path_default().join(where.work, 'private');
    (0,external_node_fs_.mkdirSync)(scratch);
    const token = `local-${(0,external_node_crypto_.randomUUID)()}`; // no GitHub: a value nothing else holds
    const openGit = (dir) => (0,git_git/* createGit */.l)(dir, { token, scratch, warn: m => log.warning(m) });
    const git = await openGit(where.checkout);
    const record = { checkRuns: [], nextRequested: false };
    const github = createLocalGitHub({
        git,
        out: where.out,
        record,
        log,
        pull: localPull(where.repo.branch, options.base)
    });
    const config = await (0,repo_config/* readRepoConfig */.bc)(github, `origin/${options.base}`);
    const given = {
        ...yourIdentity(where.repo.root),
        ...checkedInputs(options.inputs),
        'github-token': token,
        'pr-number': '1'
    };
    const settings = {
        ...(0,repo_config/* settingsFrom */.ms)(name => given[name] ?? inputFromEnv(name, io.env), config, io.env),
        retrigger: 'dispatch',
        artifactsDir: external_node_path_default().join(where.out, 'artifacts')
    };
    const ai = await agents(settings, log, options.dryRun);
    if (options.dryRun)
        settings.fixCommands = [];
    let outcome;
    for (let run = 1; run <= MAX_RUNS; run++) {
        record.nextRequested = false;
        outcome = await (0,iteration/* runIteration */.r)({
            ai,
            settings,
            ctx: localContext(where.work, where.checkout, run, external_node_path_default().basename(where.repo.root)),
            github,
            openGit,
            confine: (0,sandbox/* createConfinement */.tt)({
                mode: settings.sandbox,
                network: settings.sandboxNetwork,
                passthrough: settings.envPassthrough,
                tempDir: scratch,
                env: io.env,
                log
            }),
            artifacts: localArtifacts(settings.artifactsDir, log),
            log,
            env: io.env,
            clock: { now: () => new Date() },
            writeSummary: async () => { }
        });
        if (!record.nextRequested)
            break;
    }
    return outcome;
}
/** The records in a folder of the output (there is no artifact service to upload them to). */
function localArtifacts(dir, log) {
    const store = (0,artifacts/* createArtifactStore */.G)(dir, {}, log);
    return { save: async (name, files) => ({ ...(await store.save(name, files)), note: undefined }) };
}
/** Fixes are committed as you (git's user.name and user.email), when git knows you. */
function yourIdentity(root) {
    const read = (key) => {
        try {
            return gitOut(root, ['config', key]) || undefined;
        }
        catch {
            return undefined;
        }
    };
    const name = read('user.name');
    const email = read('user.email');
    return name && email ? { 'commit-author-name': name, 'commit-author-email': email } : {};
}
/** Secrets come from the environment, as the workflow passes them from its secrets. */
function inputFromEnv(name, env) {
    return name === 'anthropic-api-key' ? (env['ANTHROPIC_API_KEY'] ?? '') : '';
}
async function agents(settings, log, dryRun) {
    if (!settings.ai.provider)
        return undefined;
    const ai = (await Promise.all(/* import() */[__webpack_require__.e(968), __webpack_require__.e(666)]).then(__webpack_require__.bind(__webpack_require__, 13666))).createAiAgents(settings, log);
    return dryRun ? { ...ai, fix: undefined } : ai;
}
function localPull(branch, base) {
    return {
        number: 1,
        state: 'open',
        draft: false,
        merged: false,
        title: branch,
        body: '',
        author: 'you',
        htmlUrl: '',
        headRef: branch,
        baseRef: base,
        headRepoFullName: 'local',
        baseRepoFullName: 'local',
        labels: []
    };
}
/**
 * The loop's commits onto the user's branch, by fast-forward only: never when the branch moved
 * meanwhile or the merge would touch a file changed in the work tree (git refuses; the commits are
 * then named so they can be taken by hand).
 */
function bringBack(repo, mirror, dryRun) {
    const fixed = gitOut(mirror, ['rev-parse', `refs/heads/${repo.branch}`]);
    if (dryRun || fixed === repo.head)
        return { head: repo.head };
    gitOut(repo.root, ['fetch', '-q', mirror, `refs/heads/${repo.branch}`]);
    try {
        if (gitOut(repo.root, ['rev-parse', 'HEAD']) !== repo.head)
            throw new Error('the branch moved');
        gitOut(repo.root, ['merge', '-q', '--ff-only', fixed]);
        return { head: fixed };
    }
    catch (e) {
        gitOut(repo.root, ['update-ref', `refs/review-loop/${repo.branch}`, fixed]);
        return {
            head: repo.head,
            left: `The fixes were not brought onto ${repo.branch} (${e.message.split('\n')[0]}); they are at refs/review-loop/${repo.branch}: git merge --ff-only ${fixed.slice(0, 12)}`
        };
    }
}

;// CONCATENATED MODULE: ./src/cli/terminal-log.ts
/**
 * The run's log on a terminal: the same lines the action prints, without workflow commands (a
 * group is a heading, an annotation a `file:line: level: title` line a terminal or an editor reads).
 */
function createTerminalLog(write = line => process.stdout.write(`${line}\n`)) {
    return {
        info: m => write(m),
        notice: m => write(`notice: ${m}`),
        warning: m => write(`warning: ${m}`),
        debug: () => { },
        verbatim: text => write(text),
        annotate: a => write(`${a.file}:${a.startLine}: ${a.level}: ${a.title}`),
        async group(name, fn) {
            const started = Date.now();
            write(`── ${name}`);
            try {
                return await fn();
            }
            finally {
                write(`── ${name}: done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
            }
        }
    };
}

;// CONCATENATED MODULE: ./src/cli/main.ts










const defaultIo = () => ({
    cwd: process.cwd(),
    env: process.env,
    out: line => process.stdout.write(`${line}\n`),
    err: line => process.stderr.write(`${line}\n`)
});
/** `review-loop [stats] [options]`: returns the exit status (0 GO or done, 1 a failing end, 2 usage). */
async function cli(argv, io = defaultIo()) {
    try {
        const options = parseCli(argv);
        switch (options.command) {
            case 'help':
                io.out(HELP);
                return 0;
            case 'version':
                io.out(package_namespaceObject.rE);
                return 0;
            case 'stats':
                return await main_stats(options, io);
            default:
                return await review(options, io);
        }
    }
    catch (e) {
        const usage = e instanceof UsageError || e instanceof input_error/* InputError */.d || e instanceof config_file/* ConfigError */.xL;
        io.err(`review-loop: ${e.message}`);
        return usage ? 2 : 1;
    }
}
async function review(options, io) {
    const log = createTerminalLog(io.out);
    const result = await reviewLocally(options, { cwd: io.cwd, env: io.env, log });
    const { state, decision, findings = [] } = result.outcome ?? {};
    io.out('');
    if (options.dryRun)
        io.out(`review-loop (dry run, nothing fixed): ${decision ?? 'not reviewed'}, ${findings.length} findings`);
    else
        io.out(`review-loop: ${state?.status ?? 'not reviewed'}${state?.reason ? ` — ${state.reason}` : ''}`);
    if (result.outcome?.notice)
        io.out(result.outcome.notice);
    io.out(`The comment, the check results and the artifacts are in ${result.out}`);
    io.out(`  comment: ${external_node_path_default().join(result.out, 'comment.md')}`);
    if (result.left)
        io.err(result.left);
    else if (!options.dryRun)
        io.out(`Your branch is at ${result.head.slice(0, 12)} (nothing was pushed).`);
    if (options.dryRun)
        return decision === 'GO' ? 0 : 1;
    return result.outcome?.failure || result.left ? 1 : 0;
}
async function main_stats(options, io) {
    const token = io.env['GITHUB_TOKEN'] || io.env['GH_TOKEN'];
    if (!token)
        throw new UsageError('stats reads GitHub: set GITHUB_TOKEN (or GH_TOKEN) to a token that may read pull requests and issues.');
    const repository = options.repo ?? io.env['GITHUB_REPOSITORY'] ?? '';
    const [owner, repo] = repository.split('/');
    if (!owner || !repo)
        throw new UsageError('Name the repository: --repo OWNER/NAME.');
    const log = createTerminalLog(io.err);
    const github = (0,octokit_adapter/* createGitHubAdapter */.X3)({
        token,
        owner,
        repo,
        baseUrl: (options.apiUrl ?? io.env['GITHUB_API_URL'] ?? 'https://api.github.com').replace(/\/$/, ''),
        log
    });
    const report = await (0,stats/* statsReport */.s)(github, {
        last: options.last,
        author: options.stateAuthor,
        key: io.env['REVIEW_LOOP_STATE_KEY'],
        repository
    });
    for (const line of report.lines)
        io.out(line);
    if (options.summary)
        (0,external_node_fs_.writeFileSync)(options.summary, report.markdown);
    return 0;
}


/***/ })

};
