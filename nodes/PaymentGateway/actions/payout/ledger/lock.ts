/**
 * The claim lock: "read the run's references, write the claims" of one payout account, one run at
 * a time. Data tables have no unique constraint, so this lock is what makes a claim atomic. In
 * regular mode every execution runs in n8n's main process, so a lock in this process covers every
 * workflow paying from the account. Queue mode (several processes) needs a lock shared by them
 * (n8n's Redis): not built yet; see docs/retries-and-failures.md.
 */
const tails = new Map<string, Promise<void>>();

/** Runs `work` when every earlier holder of `key` has finished; releases whatever happens. */
export async function withAccountLock<T>(key: string, work: () => Promise<T>): Promise<T> {
	const before = tails.get(key) ?? Promise.resolve();
	let release: () => void = () => undefined;
	const mine = new Promise<void>((resolve) => (release = resolve));
	const tail = before.then(async () => await mine);
	tails.set(key, tail);
	await before;
	try {
		return await work();
	} finally {
		release();
		// The last holder leaves no entry behind.
		if (tails.get(key) === tail) tails.delete(key);
	}
}
