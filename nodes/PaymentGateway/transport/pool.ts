import { Agent as HttpAgent } from 'node:http';
import type { AgentOptions } from 'node:https';
import { Agent } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * Keep-alive HTTPS agents shared by every run in this process. n8n 2.41's `helpers.httpRequest`
 * builds a new agent per request (a new TCP connection and TLS handshake each time) and takes no
 * agent from its caller, so connections can only be kept by agents the node owns.
 *
 * An agent is keyed by everything that changes how a connection is made: the proxy variables
 * (Node.js routes through them itself with `proxyEnv`), the SSRF policy in force and any extra TLS
 * options.
 * The origin is not in the key: an agent already keeps its sockets per host and port.
 */
export interface PoolKey {
	/** The environment whose HTTP_PROXY / HTTPS_PROXY / NO_PROXY (any case) apply. */
	env: NodeJS.ProcessEnv;
	/**
	 * The SSRF policy (n8n's `getSecureEgressFilter()`, one long-lived object per policy) and a DNS
	 * lookup made from it, which refuses forbidden addresses. The first lookup seen for a policy
	 * serves its agent: a fresh closure per request must not make a fresh agent.
	 */
	ssrf?: { policy: object; lookup: () => LookupFunction };
	/** Extra TLS options (tests: a throw-away CA); production relies on NODE_EXTRA_CA_CERTS. */
	tls?: Pick<AgentOptions, 'ca'>;
	/** Plain http is allowed to loopback addresses only (the credential's URL check). */
	protocol?: 'http:' | 'https:';
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'];

/** The proxy variables as Node.js reads them (upper case wins over lower case). */
export function proxyEnvOf(env: NodeJS.ProcessEnv): Record<string, string> {
	const picked: Record<string, string> = {};
	for (const name of PROXY_VARIABLES) {
		const value = env[name] ?? env[name.toLowerCase()];
		if (value) picked[name] = value;
	}
	return picked;
}

/** True when this Node.js routes an agent's requests through the proxy variables (`proxyEnv`). */
export function supportsProxyEnv(version = process.versions.node): boolean {
	const [major, minor] = version.split('.').map(Number);
	return major > 24 || (major === 24 && minor >= 5);
}

/**
 * Idle sockets are closed after this long: below the shortest keep-alive time servers commonly use
 * (Node.js's 5 s), so a request is not written to a socket the server is closing at that moment —
 * a write whose fate would be unknown. A pool left alone between runs holds nothing.
 */
const IDLE_MS = 4_000;
/** Parallel Requests allows at most 20 slots; each keeps its own socket. */
const MAX_SOCKETS_PER_ORIGIN = 20;

const agents = new Map<string, Agent | HttpAgent>();
const policyIds = new WeakMap<object, number>();
let nextPolicyId = 1;

function policyId(policy: object | undefined): number {
	if (!policy) return 0;
	let id = policyIds.get(policy);
	if (id === undefined) policyIds.set(policy, (id = nextPolicyId++));
	return id;
}

/** The shared keep-alive agent for this key, made on first use. */
export function pooledAgent(key: PoolKey): Agent | HttpAgent {
	const proxyEnv = proxyEnvOf(key.env);
	const protocol = key.protocol ?? 'https:';
	const id = JSON.stringify([protocol, proxyEnv, policyId(key.ssrf?.policy), key.tls?.ca ?? null]);
	let agent = agents.get(id);
	if (!agent) {
		const AgentOf = protocol === 'https:' ? Agent : HttpAgent;
		agent = new AgentOf({
			keepAlive: true,
			maxSockets: MAX_SOCKETS_PER_ORIGIN,
			timeout: IDLE_MS,
			scheduling: 'lifo',
			...(key.ssrf && { lookup: key.ssrf.lookup() }),
			...key.tls,
			// Node.js's own proxy support: CONNECT tunnels for https, NO_PROXY honoured.
			proxyEnv,
		} as AgentOptions);
		agents.set(id, agent);
	}
	return agent;
}

/** Closes every pooled socket (tests, shutdown). */
export function destroyPool(): void {
	for (const agent of agents.values()) agent.destroy();
	agents.clear();
}
