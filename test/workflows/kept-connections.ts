import { subscribe } from 'node:diagnostics_channel';
import type { Agent, ClientRequest } from 'node:http';

/**
 * Every agent that carried a request in this process, as Node.js reports each client request on
 * its `http.client.request.start` channel: the node's pooled keep-alive agents among them, reached
 * without any hook in the product code.
 */
const agents = new Set<Agent>();

subscribe('http.client.request.start', (message) => {
	const agent = (message as { request: ClientRequest & { agent?: Agent } }).request.agent;
	if (agent) agents.add(agent);
});

/** Closes every connection those agents keep, so the next request opens a new one. */
export function closeKeptConnections(): void {
	for (const agent of agents) agent.destroy();
	agents.clear();
}
