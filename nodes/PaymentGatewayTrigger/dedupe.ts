/**
 * Whether a delivery runs: the first of its key runs, later ones are dropped.
 * - Queue mode (several processes may receive webhooks): an atomic claim in n8n's Redis, shared by
 *   every process, settled by n8n's answer (shared-claim/claim.ts).
 * - Regular mode (one process): process memory, then one row per delivery in n8n's processed_data
 *   table (rows.ts; n8n's processed-data list, ledger.ts, where n8n offers no repository); a
 *   delivery n8n answers with an error is forgotten again, so the service's retry runs.
 */
import type { IWebhookFunctions } from 'n8n-workflow';
import type { TriggerOptions } from './options';

import type { DeliveryScope } from './ledger';
import {
	claimInMemory,
	claimPersisted,
	processedDataService,
	releaseInMemory,
	releasePersisted,
	scopeKey,
} from './ledger';
import { claimRow, pruneRows, releaseRow, rowRepository, type RowRepository } from './rows';
import { claimDelivery, every, type WatchedResponse } from './shared-claim/claim';
import { executionCarries } from './shared-claim/executions';
import { sharedClaimStore, type ClaimStore } from './shared-claim/redis';

export const MAX_REMEMBERED_DELIVERIES = 10000;

/** run; duplicate (answered 200, dropped); busy: another copy is in flight or the store is down. */
export type Verdict =
	| { run: true }
	| { run: false; duplicate: true }
	| { run: false; duplicate: false; message: string };

const DUPLICATE: Verdict = { run: false, duplicate: true };

export async function judgeDelivery(
	ctx: IWebhookFunctions,
	key: string,
	options: Pick<TriggerOptions, 'duplicateWindowMinutes'>,
): Promise<Verdict> {
	const node = ctx.getNode();
	const scope: DeliveryScope = {
		workflowId: String(ctx.getWorkflow().id ?? ''),
		nodeId: node.id ?? node.name,
	};
	const windowMs = options.duplicateWindowMinutes * 60000;
	const response = ctx.getResponseObject() as unknown as WatchedResponse;
	let store: ClaimStore | undefined;
	try {
		store = await sharedClaimStore();
		if (store) {
			const deps = {
				store,
				every,
				now: Date.now,
				warn: (message: string) => ctx.logger.warn(message),
				ranSince: async (since: number) => await executionCarries(scope.workflowId, key, since),
			};
			const taken = await claimDelivery(
				deps,
				store.keyFor(`${scope.workflowId}:${scope.nodeId}`, key),
				response,
				windowMs,
			);
			if (taken === true) return { run: true };
			if (taken === 'done') return DUPLICATE;
			return inFlight();
		}
	} catch (error) {
		ctx.logger.warn(
			`Payment Gateway Trigger: shared duplicate store unreachable: ${(error as Error).message}`,
		);
		return busy(
			"n8n's shared duplicate store (Redis) could not be reached, so the delivery was not run; deliver it again",
		);
	}
	return await inThisProcess(ctx, scope, key, windowMs, response);
}

const busy = (message: string): Verdict => ({ run: false, duplicate: false, message });
const inFlight = () =>
	busy('Another copy of this delivery is being processed right now; deliver it again shortly');

async function inThisProcess(
	ctx: IWebhookFunctions,
	scope: DeliveryScope,
	key: string,
	windowMs: number,
	response: WatchedResponse,
): Promise<Verdict> {
	if (!claimInMemory(scope, key, Date.now(), { windowMs, maxEntries: MAX_REMEMBERED_DELIVERIES }))
		return DUPLICATE;
	const rows = scope.workflowId === '' ? undefined : await rowRepository();
	if (rows) return await inRows(ctx, rows, scope, key, windowMs, response);
	const service = await processedDataService();
	const nodeName = ctx.getNode().name;
	if (service && scope.workflowId !== '') {
		try {
			if (!(await claimPersisted(service, scope, nodeName, key, MAX_REMEMBERED_DELIVERIES)))
				return DUPLICATE;
		} catch (error) {
			releaseInMemory(scope, key);
			ctx.logger.warn(
				`Payment Gateway Trigger: processed-data store failed: ${(error as Error).message}`,
			);
			return busy(
				"The delivery could not be recorded in n8n's processed-data store, so it was not run; deliver it again",
			);
		}
	}
	// n8n answers only after the execution was created; an error answer means none was.
	response.once('finish', () => {
		if (response.statusCode < 400) return;
		releaseInMemory(scope, key);
		if (service && scope.workflowId !== '') {
			releasePersisted(service, scope, nodeName, key).catch((e: Error) =>
				ctx.logger.warn(`Payment Gateway Trigger: ${e.message}`),
			);
		}
	});
	return { run: true };
}

/**
 * Rows being deleted after n8n answered with an error, by scope and key: a retry waits for the
 * deletion (milliseconds), and after a failed one is answered 503 while it is tried again, never
 * "duplicate" (the row of an answered delivery of this process means a duplicate otherwise).
 */
const releasing = new Map<string, Promise<boolean>>();
const releaseId = (scope: DeliveryScope, key: string) => `${scopeKey(scope)}\u0000${key}`;

function startRelease(
	rows: RowRepository,
	scope: DeliveryScope,
	key: string,
	warn: (e: Error) => void,
): void {
	const id = releaseId(scope, key);
	const deleted = releaseRow(rows, scope.workflowId, scope.nodeId, key).then(
		() => true,
		(error: Error) => {
			warn(error);
			return false;
		},
	);
	releasing.set(id, deleted);
	void deleted.then((ok) => ok && releasing.get(id) === deleted && releasing.delete(id));
}

async function inRows(
	ctx: IWebhookFunctions,
	rows: RowRepository,
	scope: DeliveryScope,
	key: string,
	windowMs: number,
	response: WatchedResponse,
): Promise<Verdict> {
	const warn = (e: Error) => ctx.logger.warn(`Payment Gateway Trigger: ${e.message}`);
	const pendingRelease = releasing.get(releaseId(scope, key));
	if (pendingRelease && !(await pendingRelease)) {
		releaseInMemory(scope, key);
		startRelease(rows, scope, key, warn);
		return inFlight();
	}
	const deps = {
		repository: rows,
		now: Date.now,
		ranBetween: async (since: number, until: number) =>
			await executionCarries(scope.workflowId, key, since, until),
	};
	let claim;
	try {
		claim = await claimRow(deps, scope.workflowId, scope.nodeId, key);
	} catch (error) {
		releaseInMemory(scope, key);
		warn(error as Error);
		return busy(
			"The delivery could not be recorded in n8n's database, so it was not run; deliver it again",
		);
	}
	if (claim === 'done') return DUPLICATE;
	if (claim === 'pending') {
		releaseInMemory(scope, key);
		return inFlight();
	}
	// n8n answers only after the execution was created; an error answer means none was.
	response.once('finish', () => {
		if (response.statusCode >= 400) {
			startRelease(rows, scope, key, warn);
			releaseInMemory(scope, key);
		}
		pruneRows(rows, scope.workflowId, scope.nodeId, windowMs, Date.now()).catch(warn);
	});
	return { run: true };
}
