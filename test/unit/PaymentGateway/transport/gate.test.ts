import { mapInOrder, RateGate } from '../../../../nodes/PaymentGateway/transport/gate';

describe('rate gate', () => {
	it('lets at most maxInFlight through, then the next one when a slot is freed', async () => {
		const gate = new RateGate(2);
		await gate.acquire();
		await gate.acquire();
		let third = false;
		const waiting = gate.acquire().then(() => (third = true));
		await new Promise((r) => setImmediate(r));
		expect(third).toBe(false);
		gate.release(true);
		await waiting;
		expect(third).toBe(true);
	});

	it('after a 429 pauses every slot for the wait, then lets one back, and one more per success', async () => {
		let now = 1_000;
		const gate = new RateGate(3, () => now);
		gate.rateLimited(5_000);
		expect(gate.pausedForMs).toBe(5_000);
		now += 5_000;
		expect(gate.pausedForMs).toBe(0);

		await gate.acquire();
		let second = false;
		const waiting = gate.acquire().then(() => (second = true));
		await new Promise((r) => setImmediate(r));
		expect(second).toBe(false); // one slot only right after the 429
		gate.release(true); // a success lets a second slot back
		await waiting;
		expect(second).toBe(true);
	});

	it('a failed request frees its slot without widening the gate again', async () => {
		const now = 0;
		const gate = new RateGate(2, () => now);
		gate.rateLimited(0);
		await gate.acquire();
		gate.release(false);
		await gate.acquire();
		let second = false;
		const waiting = gate.acquire().then(() => (second = true));
		await new Promise((r) => setImmediate(r));
		expect(second).toBe(false);
		gate.release(true);
		await waiting;
	});

	it('a later, shorter 429 does not shorten a longer pause', () => {
		const gate = new RateGate(1, () => 0);
		gate.rateLimited(10_000);
		gate.rateLimited(1_000);
		expect(gate.pausedForMs).toBe(10_000);
	});
});

describe('mapInOrder', () => {
	it('keeps the input order whatever order the tasks finish in, with at most `limit` running', async () => {
		let running = 0;
		let most = 0;
		const results = await mapInOrder(7, 3, async (i) => {
			running++;
			most = Math.max(most, running);
			await new Promise((r) => setTimeout(r, (7 - i) * 2));
			running--;
			return i * 10;
		});
		expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
		expect(most).toBe(3);
	});

	it('starts no task after stop() says so', async () => {
		const started: number[] = [];
		const results = await mapInOrder(
			5,
			1,
			async (i) => {
				started.push(i);
				return i;
			},
			() => started.length >= 2,
		);
		expect(started).toEqual([0, 1]);
		expect(results).toEqual([0, 1, undefined, undefined, undefined]);
	});
});
