import type { FaultInjector } from './faults';
import type { Reply } from './http';
import type { SandboxKeys, KeyChannel } from './keys';
import type { RequestLogEntry } from './log';
import type { SandboxState } from './state';
import type { WebhookDeliverer } from '../areas/webhooks/delivery';

/** Payout routes live under this prefix of the base URL ({payout_url} = base URL + prefix). */
export const PAYOUT_PREFIX = '/payout';

/** Who may call a route: key pairs of the listed channels, a payout bearer token, or anyone. */
export type AuthRule = { keys: KeyChannel[] } | 'payoutBearer' | 'none';

export interface RequestContext {
	method: string;
	path: string;
	/** Decoded `:name` segments of the route path. */
	params: Record<string, string>;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: Buffer;
	/** Parsed body for `body: 'json'` routes; undefined when the body is empty. */
	json: unknown;
}

export interface Route {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Exact path; segments written `:name` match one segment. */
	path: string;
	auth: AuthRule;
	body?: 'json';
	handler: (ctx: RequestContext) => Reply | Promise<Reply>;
}

/** What every route module gets: the sandbox's shared parts. */
export interface RouteEnv {
	state: SandboxState;
	keys: SandboxKeys;
	faults: FaultInjector;
	requests: RequestLogEntry[];
	webhooks: WebhookDeliverer;
}

/** A route module: registers its area's handlers. */
export type RouteModule = (router: Router, env: RouteEnv) => void;

export interface RouteMatch {
	route: Route;
	params: Record<string, string>;
}

interface CompiledRoute {
	route: Route;
	pattern: RegExp;
	names: string[];
}

export class Router {
	private readonly routes: CompiledRoute[] = [];

	add(route: Route): void {
		const names: string[] = [];
		const source = route.path
			.split('/')
			.map((segment) => {
				if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
				names.push(segment.slice(1));
				return '([^/]+)';
			})
			.join('/');
		this.routes.push({ route, pattern: new RegExp(`^${source}$`), names });
	}

	match(method: string, path: string): RouteMatch | undefined {
		for (const { route, pattern, names } of this.routes) {
			if (route.method !== method) continue;
			const found = pattern.exec(path);
			if (!found) continue;
			const params: Record<string, string> = {};
			names.forEach((name, i) => {
				params[name] = safeDecode(found[i + 1]);
			});
			return { route, params };
		}
		return undefined;
	}
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}
