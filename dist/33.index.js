export const id = 33;
export const ids = [33];
export const modules = {

/***/ 82033:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  AnthropicVertex: () => (/* reexport */ AnthropicVertex),
  BaseAnthropic: () => (/* reexport */ client/* BaseAnthropic */.q),
  "default": () => (/* reexport */ AnthropicVertex)
});

// EXTERNAL MODULE: ./node_modules/@anthropic-ai/sdk/client.mjs + 60 modules
var client = __webpack_require__(2968);
// EXTERNAL MODULE: ./node_modules/@anthropic-ai/sdk/resources/messages/messages.mjs + 4 modules
var messages = __webpack_require__(35643);
// EXTERNAL MODULE: ./node_modules/@anthropic-ai/sdk/resources/beta/beta.mjs + 76 modules
var beta = __webpack_require__(74174);
// EXTERNAL MODULE: ./node_modules/@anthropic-ai/sdk/version.mjs
var version = __webpack_require__(45998);
;// CONCATENATED MODULE: ./node_modules/@anthropic-ai/vertex-sdk/version.mjs
const VERSION = '1.1.3'; // x-release-please-version
//# sourceMappingURL=version.mjs.map
// EXTERNAL MODULE: ./node_modules/google-auth-library/build/src/index.js
var src = __webpack_require__(492);
// EXTERNAL MODULE: ./node_modules/@anthropic-ai/sdk/core/error.mjs
var error = __webpack_require__(25064);
;// CONCATENATED MODULE: ./node_modules/@anthropic-ai/vertex-sdk/internal/errors.mjs
function isAbortError(err) {
    return (typeof err === 'object' &&
        err !== null &&
        // Spec-compliant fetch implementations
        (('name' in err && err.name === 'AbortError') ||
            // Expo fetch
            ('message' in err && String(err.message).includes('FetchRequestCanceledException'))));
}
const castToError = (err) => {
    if (err instanceof Error)
        return err;
    if (typeof err === 'object' && err !== null) {
        try {
            const tag = Object.prototype.toString.call(err);
            // cross-realm errors (e.g. undici's abort `DOMException` under jest) fail `instanceof Error`
            if (tag === '[object Error]' || tag === '[object DOMException]') {
                // @ts-ignore - not all envs have native support for cause yet
                const error = new Error(err.message, err.cause ? { cause: err.cause } : {});
                if (err.stack)
                    error.stack = err.stack;
                // @ts-ignore - not all envs have native support for cause yet
                if (err.cause && !error.cause)
                    error.cause = err.cause;
                if (err.name)
                    error.name = err.name;
                return error;
            }
        }
        catch { }
        try {
            return new Error(JSON.stringify(err));
        }
        catch { }
    }
    return new Error(err);
};
//# sourceMappingURL=errors.mjs.map
;// CONCATENATED MODULE: ./node_modules/@anthropic-ai/vertex-sdk/internal/utils/env.mjs
/**
 * Read an environment variable.
 *
 * Trims beginning and trailing whitespace.
 *
 * Will return undefined if the environment variable doesn't exist or cannot be accessed.
 */
const readEnv = (env) => {
    if (typeof globalThis.process !== 'undefined') {
        return globalThis.process.env?.[env]?.trim() || undefined;
    }
    if (typeof globalThis.Deno !== 'undefined') {
        return globalThis.Deno.env?.get?.(env)?.trim() || undefined;
    }
    return undefined;
};
//# sourceMappingURL=env.mjs.map
;// CONCATENATED MODULE: ./node_modules/@anthropic-ai/vertex-sdk/internal/utils/values.mjs

// https://url.spec.whatwg.org/#url-scheme-string
const startsWithSchemeRegexp = /^[a-z][a-z0-9+.-]*:/i;
const isAbsoluteURL = (url) => {
    return startsWithSchemeRegexp.test(url);
};
let isArray = (val) => ((isArray = Array.isArray), isArray(val));
let isReadonlyArray = isArray;
/** Returns an object if the given value isn't an object, otherwise returns as-is */
function maybeObj(x) {
    if (typeof x !== 'object') {
        return {};
    }
    return x ?? {};
}
// https://stackoverflow.com/a/34491287
function isEmptyObj(obj) {
    if (!obj)
        return true;
    for (const _k in obj)
        return false;
    return true;
}
// https://eslint.org/docs/latest/rules/no-prototype-builtins
function hasOwn(obj, key) {
    return Object.prototype.hasOwnProperty.call(obj, key);
}
function isObj(obj) {
    return obj != null && typeof obj === 'object' && !Array.isArray(obj);
}
const ensurePresent = (value) => {
    if (value == null) {
        throw new AnthropicError(`Expected a value to be given but received ${value} instead.`);
    }
    return value;
};
const validatePositiveInteger = (name, n) => {
    if (typeof n !== 'number' || !Number.isInteger(n)) {
        throw new AnthropicError(`${name} must be an integer`);
    }
    if (n < 0) {
        throw new AnthropicError(`${name} must be a positive integer`);
    }
    return n;
};
const CREDENTIAL_OPTIONS = ['apiKey', 'authToken', 'credentials', 'config', 'profile'];
/**
 * Throws when `options` holds a first-party credential option that a platform
 * client does not accept, so that a new one is rejected until the client opts
 * in. `null` passes, because the base `withOptions` fills the credential
 * options it clears with `null`.
 */
const rejectUnsupportedCredentials = (options, platform) => {
    for (const name of CREDENTIAL_OPTIONS) {
        if (!platform.accepts.includes(name) && options[name] != null) {
            throw new error/* AnthropicError */.pJ(platform.unsupportedOptionMessage(name));
        }
    }
};
const coerceInteger = (value) => {
    if (typeof value === 'number')
        return Math.round(value);
    if (typeof value === 'string')
        return parseInt(value, 10);
    throw new AnthropicError(`Could not coerce ${value} (type: ${typeof value}) into a number`);
};
const coerceFloat = (value) => {
    if (typeof value === 'number')
        return value;
    if (typeof value === 'string')
        return parseFloat(value);
    throw new AnthropicError(`Could not coerce ${value} (type: ${typeof value}) into a number`);
};
const coerceBoolean = (value) => {
    if (typeof value === 'boolean')
        return value;
    if (typeof value === 'string')
        return value === 'true';
    return Boolean(value);
};
const maybeCoerceInteger = (value) => {
    if (value == null) {
        return undefined;
    }
    return coerceInteger(value);
};
const maybeCoerceFloat = (value) => {
    if (value == null) {
        return undefined;
    }
    return coerceFloat(value);
};
const maybeCoerceBoolean = (value) => {
    if (value == null) {
        return undefined;
    }
    return coerceBoolean(value);
};
const safeJSON = (text) => {
    try {
        return JSON.parse(text);
    }
    catch (err) {
        return undefined;
    }
};
// Gets a value from an object, deletes the key, and returns the value (or undefined if not found)
const pop = (obj, key) => {
    const value = obj[key];
    delete obj[key];
    return value;
};
/**
 * Compile-time exhaustiveness check: passing a value here only type-checks once every
 * member of its union has been handled. Does nothing at runtime, so unknown values from a
 * newer API version fall through instead of throwing.
 */
function checkNever(_value) { }
//# sourceMappingURL=values.mjs.map
;// CONCATENATED MODULE: ./node_modules/@anthropic-ai/vertex-sdk/internal/headers.mjs

const brand_privateNullableHeaders = Symbol.for('brand.privateNullableHeaders');
function* iterateHeaders(headers) {
    if (!headers)
        return;
    if (brand_privateNullableHeaders in headers) {
        const { values, nulls } = headers;
        yield* values.entries();
        for (const name of nulls) {
            yield [name, null];
        }
        return;
    }
    let shouldClear = false;
    let iter;
    if (headers instanceof Headers) {
        iter = headers.entries();
    }
    else if (isReadonlyArray(headers)) {
        iter = headers;
    }
    else {
        shouldClear = true;
        iter = Object.entries(headers ?? {});
    }
    for (let row of iter) {
        const name = row[0];
        if (typeof name !== 'string')
            throw new TypeError('expected header name to be a string');
        const values = isReadonlyArray(row[1]) ? row[1] : [row[1]];
        let didClear = false;
        for (const value of values) {
            if (value === undefined)
                continue;
            // Objects keys always overwrite older headers, they never append.
            // Yield the clear sentinel before adding the new values, so the
            // consumer can tell this synthetic "clear-before-set" apart from a
            // user's explicit `null` (= remove).
            if (shouldClear && !didClear) {
                didClear = true;
                yield [name, clearSentinel];
            }
            yield [name, value];
        }
    }
}
/** Distinguishes iterateHeaders' synthetic clear-before-set from a user `null`. */
const clearSentinel = Symbol('clear');
/**
 * Headers whose values accumulate across {@link buildHeaders} sources instead
 * of the later source's value replacing the earlier one. Values are
 * comma-appended (deduplicated, order-preserving) into a single header line.
 */
const APPEND_HEADERS = new Set(['x-stainless-helper']);
const appendHeaderValue = (existing, addition) => {
    const tokens = existing ?
        existing
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean)
        : [];
    for (const tok of addition.split(',').map((t) => t.trim())) {
        if (tok && !tokens.includes(tok))
            tokens.push(tok);
    }
    return tokens.join(', ');
};
const buildHeaders = (newHeaders) => {
    const targetHeaders = new Headers();
    const nullHeaders = new Set();
    for (const headers of newHeaders) {
        const seenHeaders = new Set();
        for (const [name, value] of iterateHeaders(headers)) {
            const lowerName = name.toLowerCase();
            if (APPEND_HEADERS.has(lowerName)) {
                // Accumulating headers ignore the synthetic clear-before-set; an
                // explicit `null` (any source shape) is honored as removal.
                if (value === clearSentinel)
                    continue;
                if (value === null) {
                    targetHeaders.delete(name);
                    nullHeaders.add(lowerName);
                }
                else {
                    targetHeaders.set(name, appendHeaderValue(targetHeaders.get(name), value));
                    nullHeaders.delete(lowerName);
                }
                continue;
            }
            if (value === clearSentinel || !seenHeaders.has(lowerName)) {
                targetHeaders.delete(name);
                seenHeaders.add(lowerName);
                if (value === clearSentinel)
                    continue;
            }
            if (value === null) {
                targetHeaders.delete(name);
                nullHeaders.add(lowerName);
            }
            else {
                targetHeaders.append(name, value);
                nullHeaders.delete(lowerName);
            }
        }
    }
    return { [brand_privateNullableHeaders]: true, values: targetHeaders, nulls: nullHeaders };
};
const isEmptyHeaders = (headers) => {
    for (const _ of iterateHeaders(headers))
        return false;
    return true;
};
//# sourceMappingURL=headers.mjs.map
;// CONCATENATED MODULE: ./node_modules/@anthropic-ai/vertex-sdk/internal/utils/path.mjs

/**
 * Percent-encode everything that isn't safe to have in a path without encoding safe chars.
 *
 * Taken from https://datatracker.ietf.org/doc/html/rfc3986#section-3.3:
 * > unreserved  = ALPHA / DIGIT / "-" / "." / "_" / "~"
 * > sub-delims  = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
 * > pchar       = unreserved / pct-encoded / sub-delims / ":" / "@"
 */
function encodeURIPath(str) {
    return str.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]+/g, encodeURIComponent);
}
const EMPTY = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ Object.create(null));
const createPathTagFunction = (pathEncoder = encodeURIPath) => function path(statics, ...params) {
    // If there are no params, no processing is needed.
    if (statics.length === 1)
        return statics[0];
    let postPath = false;
    const invalidSegments = [];
    const path = statics.reduce((previousValue, currentValue, index) => {
        if (/[?#]/.test(currentValue)) {
            postPath = true;
        }
        const value = params[index];
        let encoded = (postPath ? encodeURIComponent : pathEncoder)('' + value);
        if (index !== params.length &&
            (value == null ||
                (typeof value === 'object' &&
                    // handle values from other realms
                    value.toString ===
                        Object.getPrototypeOf(Object.getPrototypeOf(value.hasOwnProperty ?? EMPTY) ?? EMPTY)
                            ?.toString))) {
            encoded = value + '';
            invalidSegments.push({
                start: previousValue.length + currentValue.length,
                length: encoded.length,
                error: `Value of type ${Object.prototype.toString
                    .call(value)
                    .slice(8, -1)} is not a valid path parameter`,
            });
        }
        if (!postPath && (encoded === '' || encoded.startsWith(';'))) {
            invalidSegments.push({
                start: previousValue.length + currentValue.length,
                length: encoded.length,
                error: `Value "${encoded}" can\'t be safely passed as a path parameter`,
            });
        }
        return previousValue + currentValue + (index === params.length ? '' : encoded);
    }, '');
    const pathOnly = path.split(/[?#]/, 1)[0];
    const invalidSegmentPattern = /(?<=^|\/)(?:\.|%2e){1,2}(?:;[^/]*)?(?=\/|$)/gi;
    let match;
    // Find all invalid segments
    while ((match = invalidSegmentPattern.exec(pathOnly)) !== null) {
        invalidSegments.push({
            start: match.index,
            length: match[0].length,
            error: `Value "${match[0]}" can\'t be safely passed as a path parameter`,
        });
    }
    invalidSegments.sort((a, b) => a.start - b.start);
    if (invalidSegments.length > 0) {
        const marks = [];
        for (const segment of invalidSegments) {
            for (let i = segment.start; i < segment.start + Math.max(1, segment.length); i++) {
                marks[i] = '^';
            }
        }
        const underline = Array.from(marks, (mark) => mark ?? ' ').join('');
        throw new error/* AnthropicError */.pJ(`Path parameters result in path with invalid segments:\n${invalidSegments
            .map((e) => e.error)
            .join('\n')}\n${path}\n${underline}`);
    }
    return path;
};
/**
 * URI-encodes path params and ensures that none before any ? or # is empty and none introduces an unsafe /./ or /../ path segment.
 */
const path = /* @__PURE__ */ createPathTagFunction(encodeURIPath);
//# sourceMappingURL=path.mjs.map
;// CONCATENATED MODULE: ./node_modules/@anthropic-ai/vertex-sdk/client.mjs
var __classPrivateFieldGet = (undefined && undefined.__classPrivateFieldGet) || function (receiver, state, kind, f) {
    if (kind === "a" && !f) throw new TypeError("Private accessor was defined without a getter");
    if (typeof state === "function" ? receiver !== state || !f : !state.has(receiver)) throw new TypeError("Cannot read private member from an object whose class did not declare it");
    return kind === "m" ? f : kind === "a" ? f.call(receiver) : f ? f.value : state.get(receiver);
};
var _AnthropicVertex_instances, _AnthropicVertex_adaptRequest;












const MODEL_ENDPOINTS = new Set(['/v1/messages', '/v1/messages?beta=true']);
const CREDENTIALS = {
    accepts: [],
    unsupportedOptionMessage: (option) => `The \`${option}\` option is not supported by AnthropicVertex; authentication uses Google credentials (\`googleAuth\`, \`authClient\`, or Application Default Credentials).`,
};
class AnthropicVertex extends client/* BaseAnthropic */.q {
    /** @internal */
    _instrumentationScope() {
        return { platform: 'vertex', version: VERSION };
    }
    /**
     * API Client for interfacing with the Anthropic Vertex API.
     *
     * The `apiKey`, `authToken`, `credentials`, `config`, and `profile`
     * options throw an `AnthropicError`.
     *
     * @param {string | null} opts.accessToken
     * @param {string | null} opts.projectId
     * @param {GoogleAuth} opts.googleAuth - Override the default google auth config
     * @param {AuthClient} opts.authClient - Provide a pre-configured AuthClient instance (alternative to googleAuth)
     * @param {string | null} [opts.region=process.env['CLOUD_ML_REGION']] - The region to use for the API. Use 'global' for global endpoint. [More details here](https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations).
     * @param {string} [opts.baseURL=process.env['ANTHROPIC_VERTEX__BASE_URL'] ?? https://${region}-aiplatform.googleapis.com/v1] - Override the default base URL for the API.
     * @param {number} [opts.timeout=10 minutes] - The maximum amount of time (in milliseconds) the client will wait for a response before timing out.
     * @param {MergedRequestInit} [opts.fetchOptions] - Additional `RequestInit` options to be passed to `fetch` calls.
     * @param {Fetch} [opts.fetch] - Specify a custom `fetch` function implementation.
     * @param {number} [opts.maxRetries=2] - The maximum number of times the client will retry a request.
     * @param {HeadersLike} opts.defaultHeaders - Default headers to include with every request to the API.
     * @param {Record<string, string | undefined>} opts.defaultQuery - Default query parameters to include with every request to the API.
     * @param {boolean} [opts.dangerouslyAllowBrowser=false] - By default, client-side use of this library is not allowed, as it risks exposing your secret API credentials to attackers.
     */
    constructor({ baseURL = readEnv('ANTHROPIC_VERTEX_BASE_URL'), region = readEnv('CLOUD_ML_REGION') ?? null, projectId = readEnv('ANTHROPIC_VERTEX_PROJECT_ID') ?? null, ...opts } = {}) {
        rejectUnsupportedCredentials(opts, CREDENTIALS);
        if (!region) {
            throw new Error('No region was given. The client should be instantiated with the `region` option or the `CLOUD_ML_REGION` environment variable should be set.');
        }
        if (!baseURL) {
            switch (region) {
                case 'global':
                    baseURL = 'https://aiplatform.googleapis.com/v1';
                    break;
                case 'us':
                    baseURL = 'https://aiplatform.us.rep.googleapis.com/v1';
                    break;
                case 'eu':
                    baseURL = 'https://aiplatform.eu.rep.googleapis.com/v1';
                    break;
                default:
                    baseURL = `https://${region}-aiplatform.googleapis.com/v1`;
            }
        }
        super({
            baseURL,
            // `null`, not `undefined`: `undefined` makes the base client fall back
            // to the ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN env vars, which are
            // not auth sources for Vertex — they must never be sent to the Google
            // endpoint alongside the Google OAuth credentials.
            apiKey: null,
            authToken: null,
            ...opts,
        });
        _AnthropicVertex_instances.add(this);
        /** @internal */
        this._genAIProviderName = 'gcp.vertex_ai';
        this.messages = makeMessagesResource(this);
        this.beta = makeBetaResource(this);
        this.region = region;
        this.projectId = projectId;
        this.accessToken = opts.accessToken ?? null;
        if (opts.authClient && opts.googleAuth) {
            throw new Error('You cannot provide both `authClient` and `googleAuth`. Please provide only one of them.');
        }
        else if (opts.authClient) {
            this._authClientPromise = Promise.resolve(opts.authClient);
        }
        else {
            this._auth =
                opts.googleAuth ?? new src.GoogleAuth({ scopes: 'https://www.googleapis.com/auth/cloud-platform' });
            this._authClientPromise = this._auth.getClient();
        }
    }
    /** Vertex AI does not serve the user profile endpoints, so reading this throws. */
    get userProfiles() {
        return throwUserProfilesUnavailable();
    }
    /**
     * Create a new client instance re-using the same options given to the
     * current client, including `region` and `projectId`, with optional overriding.
     */
    withOptions(options) {
        return super.withOptions({
            region: this.region,
            projectId: this.projectId,
            // The constructor takes only one of the two, so the one given here replaces the other.
            ...(options.authClient ? { googleAuth: null } : {}),
            ...(options.googleAuth ? { authClient: null } : {}),
            ...options,
        });
    }
    validateHeaders() {
        // auth validation is handled in the backend middleware since it needs to be async
    }
    // Auth is Google OAuth only; never resolve unrelated local Anthropic
    // credentials (which could also supply a base URL).
    _shouldResolveDefaultCredentials() {
        return false;
    }
    // Google OAuth is applied in the backend middleware; no first-party
    // Authorization header may reach the Vertex endpoint.
    async authHeaders() {
        return undefined;
    }
    getUserAgent() {
        return `AnthropicVertex/JS ${version/* VERSION */.x}`;
    }
    backendMiddleware() {
        return [async (request, next, ctx) => next(await __classPrivateFieldGet(this, _AnthropicVertex_instances, "m", _AnthropicVertex_adaptRequest).call(this, request, ctx.options))];
    }
}
_AnthropicVertex_instances = new WeakSet(), _AnthropicVertex_adaptRequest = 
/**
 * Rewrites the canonical Anthropic-shaped request into Vertex's wire shape
 * and applies Google OAuth. Runs inside the user middleware chain: the
 * OAuth token is a backend credential transformation, so middleware never
 * observes it, and each `next()` invocation applies a fresh token.
 */
async function _AnthropicVertex_adaptRequest(request, options) {
    let authClient;
    let googleAuthHeaders;
    try {
        authClient = await this._authClientPromise;
        googleAuthHeaders = await authClient.getRequestHeaders();
    }
    catch (err) {
        // OAuth token acquisition is network-bound (metadata server, token
        // endpoint), so its failures stay on the SDK's connection-error retry
        // policy instead of propagating as non-retryable middleware errors.
        throw new error/* APIConnectionError */.xX({
            message: 'Failed to acquire Google OAuth credentials.',
            cause: castToError(err),
        });
    }
    const projectId = authClient.projectId ?? googleAuthHeaders.get('x-goog-user-project');
    if (!this.projectId && projectId) {
        this.projectId = projectId;
    }
    const url = new URL(request.url);
    let parsedBody;
    if (typeof request.body === 'string') {
        const parsed = safeJSON(request.body);
        if (isObj(parsed))
            parsedBody = parsed;
    }
    const version = request.headers.get('anthropic-version');
    if (parsedBody && version && !parsedBody['anthropic_version']) {
        parsedBody['anthropic_version'] = version;
    }
    if (options && MODEL_ENDPOINTS.has(options.path) && options.method === 'post') {
        // Rewrite by canonical-suffix replacement so base URLs with path
        // prefixes keep working. If middleware rewrote the path away from the
        // canonical shape, it took control of the wire shape: leave it alone.
        const canonicalPath = options.path.split('?')[0];
        if (url.pathname.endsWith(canonicalPath)) {
            if (!this.projectId) {
                throw new Error('No projectId was given and it could not be resolved from credentials. The client should be instantiated with the `projectId` option or the `ANTHROPIC_VERTEX_PROJECT_ID` environment variable should be set.');
            }
            if (!parsedBody) {
                throw new Error('Expected request body to be an object for post /v1/messages');
            }
            const model = parsedBody['model'];
            delete parsedBody['model'];
            const stream = parsedBody['stream'] ?? false;
            const specifier = stream ? 'streamRawPredict' : 'rawPredict';
            const prefix = url.pathname.slice(0, url.pathname.length - canonicalPath.length);
            const modelPath = path `/projects/${this.projectId}/locations/${this.region}/publishers/anthropic/models/${model}:${specifier}`;
            // A server that drops ";" and the rest of a segment would drop the method name.
            url.pathname = prefix + modelPath.replace(/[^/]*$/, (segment) => segment.replace(/;/g, '%3B'));
            // The canonical `?beta=true` marker has no meaning on Vertex.
            url.searchParams.delete('beta');
        }
    }
    if (options &&
        (options.path === '/v1/messages/count_tokens' ||
            (options.path == '/v1/messages/count_tokens?beta=true' && options.method === 'post'))) {
        const canonicalPath = options.path.split('?')[0];
        if (url.pathname.endsWith(canonicalPath)) {
            if (!this.projectId) {
                throw new Error('No projectId was given and it could not be resolved from credentials. The client should be instantiated with the `projectId` option or the `ANTHROPIC_VERTEX_PROJECT_ID` environment variable should be set.');
            }
            const prefix = url.pathname.slice(0, url.pathname.length - canonicalPath.length);
            url.pathname =
                prefix +
                    path `/projects/${this.projectId}/locations/${this.region}/publishers/anthropic/models/count-tokens:rawPredict`;
            url.searchParams.delete('beta');
        }
    }
    const adapted = {
        ...request,
        url: url.toString(),
        // Request/middleware-set headers win over the OAuth headers, preserving
        // the ability to override `Authorization` explicitly. Vertex takes the
        // API version from the body.
        headers: buildHeaders([googleAuthHeaders, request.headers, { 'anthropic-version': null }]).values,
    };
    if (parsedBody) {
        adapted.body = JSON.stringify(parsedBody);
    }
    return adapted;
};
function makeMessagesResource(client) {
    const resource = new messages/* Messages */.B2(client);
    // @ts-expect-error we're deleting non-optional properties
    delete resource.batches;
    return resource;
}
function makeBetaResource(client) {
    const resource = new beta/* Beta */.jc(client);
    // @ts-expect-error we're deleting non-optional properties
    delete resource.messages.batches;
    Object.defineProperty(resource, 'userProfiles', { enumerable: false, get: throwUserProfilesUnavailable });
    return resource;
}
function throwUserProfilesUnavailable() {
    throw new error/* AnthropicError */.pJ('Managing user profiles is not available on `AnthropicVertex`. To send a profile ID with a request, pass `user_profile_id` to `messages.create`.');
}
//# sourceMappingURL=client.mjs.map
;// CONCATENATED MODULE: ./node_modules/@anthropic-ai/vertex-sdk/index.mjs


//# sourceMappingURL=index.mjs.map

/***/ })

};
