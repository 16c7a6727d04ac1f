// The queue-mode claim's life: pending while n8n works on the delivery, then done (n8n answered
// 2xx) or released (n8n answered an error), expiring by itself when the process dies.
import { EventEmitter } from 'node:events';

import {
	claimDelivery,
	repeatEvery,
	MAX_PENDING_MS,
	PENDING_TTL_MS,
	TICK_MS,
	type ClaimDeps,
} from '../../../../nodes/PaymentGatewayTrigger/exactly-once/redis-claim';
import type { ClaimStore } from '../../../../nodes/PaymentGatewayTrigger/exactly-once/redis-store';
import { earlierRun } from '../../../../nodes/PaymentGatewayTrigger/exactly-once/earlier-run';

/** Redis's SET NX PX / GET / scripts on a fake clock; `down` makes every command fail. */
class FakeRedis implements ClaimStore {
	readonly keys = new Map<string, { value: string; until: number }>();

	down = false;

	constructor(private readonly clock: { now: number }) {}

	private read(key: string) {
		if (this.down) throw new Error('Connection is closed.');
		const entry = this.keys.get(key);
		if (entry && entry.until <= this.clock.now) this.keys.delete(key);
		return this.keys.get(key);
	}

	async claim(key: string, token: string, ttlMs: number, keepMs: number, now: number) {
		const held = this.read(key);
		if (held) return held.value === 'done' ? ('done' as const) : ('pending' as const);
		this.keys.set(key, { value: `pending:${token}`, until: this.clock.now + ttlMs });
		const since = this.read(`${key}:since`);
		this.keys.set(`${key}:since`, {
			value: since?.value ?? String(now),
			until: this.clock.now + keepMs,
		});
		return since ? { orphanSince: Number(since.value) } : {};
	}

	async renew(key: string, token: string, ttlMs: number) {
		const held = this.read(key);
		if (held?.value !== `pending:${token}`) return false;
		held.until = this.clock.now + ttlMs;
		return true;
	}

	async confirm(key: string, token: string, keepMs: number) {
		const held = this.read(key);
		if (held && held.value !== `pending:${token}`) return false;
		this.keys.set(key, { value: 'done', until: this.clock.now + keepMs });
		this.keys.delete(`${key}:since`);
		return true;
	}

	async release(key: string, token: string, keepMark = false) {
		if (this.read(key)?.value !== `pending:${token}`) return;
		this.keys.delete(key);
		if (!keepMark) this.keys.delete(`${key}:since`);
	}

	keyFor(scope: string, deliveryKey: string) {
		return `n8n:payment-gateway-trigger:${scope}:${deliveryKey}`;
	}
}

class Response extends EventEmitter {
	headersSent = false;

	statusCode = 200;

	answer(code: number) {
		this.statusCode = code;
		this.headersSent = true;
		this.emit('finish');
	}
}

const KEEP = 24 * 3600_000;
const nextTurn = async () => await new Promise((r) => setImmediate(r));

function setup() {
	const clock = { now: 1_000_000 };
	const store = new FakeRedis(clock);
	const ticks = new Set<() => void>();
	const warnings: string[] = [];
	/**
	 * What n8n's database answers about executions (undefined: this n8n has no execution check);
	 * `asked` records each question. The one policy (earlier-run.ts) turns it into a verdict.
	 */
	const executions = { ran: false as boolean | undefined | Error, asked: [] as number[] };
	const check = async () => {
		const ran = executions.ran;
		if (ran === undefined) return { found: false as const, why: 'no @n8n/db here' };
		const carries = async () => (ran instanceof Error ? await Promise.reject(ran) : ran);
		return { found: true as const, use: { carries } };
	};
	const deps: ClaimDeps = {
		store,
		earlierRun: async (since) => {
			executions.asked.push(since);
			const delivery = { workflowId: 'wf', key: 'k' };
			return await earlierRun(check, (m) => warnings.push(m), delivery, since, clock.now);
		},
		now: () => clock.now,
		warn: (message) => warnings.push(message),
		repeatEvery: (_ms, tick) => {
			ticks.add(tick);
			return () => ticks.delete(tick);
		},
	};
	/** Moves the clock in steps of TICK_MS, firing the timers of live claims. */
	const advance = async (ms: number, withTimers = true) => {
		for (let passed = 0; passed < ms; passed += TICK_MS) {
			clock.now += TICK_MS;
			if (withTimers) for (const tick of [...ticks]) tick();
			await nextTurn();
		}
	};
	return { clock, store, deps, ticks, warnings, advance, executions };
}

describe('shared claim (queue mode)', () => {
	test('a second copy while the first is pending is told "pending"; once n8n answered 200, "done"', async () => {
		const { store, deps } = setup();
		const first = new Response();
		expect(await claimDelivery(deps, 'k', first, KEEP)).toBe(true);
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe('pending');
		first.answer(200);
		await nextTurn();
		expect(store.keys.get('k')?.value).toBe('done');
		expect(store.keys.has('k:since')).toBe(false);
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe('done');
	});

	test('n8n answered an error (no execution): the claim is released and the retry runs', async () => {
		const { deps, ticks } = setup();
		const first = new Response();
		await claimDelivery(deps, 'k', first, KEEP);
		first.answer(500);
		await nextTurn();
		expect(ticks.size).toBe(0);
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe(true);
	});

	test('a slow answer keeps its claim (renewed); a killed process stops renewing and the claim expires', async () => {
		const { deps, advance } = setup();
		const slow = new Response();
		await claimDelivery(deps, 'slow', slow, KEEP);
		await advance(PENDING_TTL_MS * 3);
		expect(await claimDelivery(deps, 'slow', new Response(), KEEP)).toBe('pending');

		await claimDelivery(deps, 'killed', new Response(), KEEP);
		await advance(PENDING_TTL_MS, false);
		expect(await claimDelivery(deps, 'killed', new Response(), KEEP)).toBe(true);
	});

	test("a process slowed past its claim's expiry: n8n's 2xx still marks it done, mark removed", async () => {
		const { store, deps, advance } = setup();
		const slowed = new Response();
		await claimDelivery(deps, 'k', slowed, KEEP);
		// Its renewals did not run (a blocked event loop): the pending key expired.
		await advance(PENDING_TTL_MS, false);
		slowed.answer(200);
		await advance(TICK_MS);
		expect(store.keys.get('k')?.value).toBe('done');
		expect(store.keys.has('k:since')).toBe(false);
	});

	test('an expired claim taken meanwhile by another copy is left to that copy', async () => {
		const { store, deps, advance, executions } = setup();
		// The other copy looked before the slowed process's execution was written: it runs.
		executions.ran = false;
		const slowed = new Response();
		await claimDelivery(deps, 'k', slowed, KEEP);
		await advance(PENDING_TTL_MS, false);
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe(true);
		const held = store.keys.get('k')?.value;
		slowed.answer(200);
		await advance(TICK_MS);
		expect(held).toMatch(/^pending:/);
		expect(store.keys.get('k')?.value).toBe(held);
	});

	test('a claim left by a killed process whose execution exists: the next copy is a duplicate', async () => {
		const { clock, store, deps, advance, executions } = setup();
		const firstTaken = clock.now;
		await claimDelivery(deps, 'k', new Response(), KEEP);
		await advance(PENDING_TTL_MS, false);
		executions.ran = true;
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe('done');
		expect(executions.asked).toEqual([firstTaken]);
		expect(store.keys.get('k')?.value).toBe('done');
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe('done');
		expect(executions.asked).toHaveLength(1);
	});

	test('a claim left by a killed process before n8n created the execution: the next copy runs', async () => {
		const { deps, advance, executions, store } = setup();
		await claimDelivery(deps, 'k', new Response(), KEEP);
		await advance(PENDING_TTL_MS, false);
		executions.ran = false;
		const retry = new Response();
		expect(await claimDelivery(deps, 'k', retry, KEEP)).toBe(true);
		retry.answer(200);
		await nextTurn();
		expect(store.keys.get('k')?.value).toBe('done');
		expect(store.keys.has('k:since')).toBe(false);
	});

	test("n8n's database unreadable after a killed claim: 503 now, and a later copy asks again", async () => {
		const { deps, advance, executions, warnings } = setup();
		await claimDelivery(deps, 'k', new Response(), KEEP);
		await advance(PENDING_TTL_MS, false);
		executions.ran = new Error('Database is not ready!');
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe('pending');
		expect(warnings.join()).toContain('Database is not ready!');
		executions.ran = true;
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe('done');
		expect(executions.asked).toHaveLength(2);
	});

	test('a claim left by a killed process where this n8n has no execution check: the next copy runs', async () => {
		const { deps, advance, executions, warnings } = setup();
		await claimDelivery(deps, 'k', new Response(), KEEP);
		await advance(PENDING_TTL_MS, false);
		executions.ran = undefined;
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe(true);
		expect(executions.asked).toHaveLength(1);
		// Not warned per delivery: the mode "without execution check" is named in n8n's log once.
		expect(warnings).toEqual([]);
	});

	test('an error answer releases the claim and its mark: the retry runs without asking the database', async () => {
		const { deps, executions } = setup();
		const first = new Response();
		await claimDelivery(deps, 'k', first, KEEP);
		first.answer(500);
		await nextTurn();
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe(true);
		expect(executions.asked).toEqual([]);
	});

	test('a confirm that fails while Redis is away is retried on the next tick', async () => {
		const { store, deps, advance, warnings } = setup();
		const first = new Response();
		await claimDelivery(deps, 'k', first, KEEP);
		store.down = true;
		first.answer(200);
		await advance(3 * TICK_MS);
		store.down = false;
		await advance(TICK_MS);
		expect(store.keys.get('k')?.value).toBe('done');
		expect(warnings).toEqual([]);
	});

	test('the store unreachable when claiming: the claim call fails (the node answers 503)', async () => {
		const { store, deps } = setup();
		store.down = true;
		await expect(claimDelivery(deps, 'k', new Response(), KEEP)).rejects.toThrow(
			'Connection is closed',
		);
	});

	test('a request never answered stops renewing after MAX_PENDING_MS', async () => {
		const { deps, advance, ticks } = setup();
		await claimDelivery(deps, 'k', new Response(), KEEP);
		await advance(MAX_PENDING_MS + TICK_MS);
		expect(ticks.size).toBe(0);
		await advance(PENDING_TTL_MS, false);
		expect(await claimDelivery(deps, 'k', new Response(), KEEP)).toBe(true);
	});

	test('repeatEvery: ticks until stopped', async () => {
		let ticks = 0;
		const stop = repeatEvery(5, () => (ticks += 1));
		await new Promise((r) => setTimeout(r, 60));
		stop();
		const seen = ticks;
		expect(seen).toBeGreaterThan(2);
		await new Promise((r) => setTimeout(r, 30));
		expect(ticks).toBe(seen);
	});
});
