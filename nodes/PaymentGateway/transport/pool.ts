import { Agent as HttpAgent } from 'node:http';
import type { AgentOptions } from 'node:https';
import { Agent } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * Keep-alive agents shared by every run in this process. n8n's `helpers.httpRequest` builds a new
 * agent per request (a new TCP connection and TLS handshake each time) in every supported release,
 * and takes no agent from its caller, so connections can only be kept by agents the node owns.
 *
 * Only direct connections are pooled: with a proxy set in the environment, requests go through
 * n8n's helper, which applies n8n's own proxy rules (the same on every Node.js and n8n release).
 * An agent is keyed by everything else that changes how a connection is made: the protocol, the
 * SSRF policy in force and any extra TLS options. The origin is not in the key: an agent already
 * keeps its sockets per host and port.
 */
export interface PoolKey {
	/**
	 * The SSRF policy (n8n's `getSecureEgressFilter()`, one long-lived object per policy) and a DNS
	 * lookup made from it, which refuses forbidden addresses. The first lookup seen for a policy
	 * serves its agent: a fresh closure per request must not make a fresh agent. Absent in n8n
	 * releases without an SSRF policy.
	 */
	ssrf?: { policy: object; lookup: () => LookupFunction };
	/** Extra TLS options (tests: a throw-away CA); production relies on NODE_EXTRA_CA_CERTS. */
	tls?: Pick<AgentOptions, 'ca'>;
	/** Plain http is allowed to loopback addresses only (the credential's URL check). */
	protocol?: 'http:' | 'https:';
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
	const protocol = key.protocol ?? 'https:';
	const id = JSON.stringify([protocol, policyId(key.ssrf?.policy), key.tls?.ca ?? null]);
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
		});
		agents.set(id, agent);
	}
	return agent;
}
