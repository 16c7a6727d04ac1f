import { addItem } from '../../sandbox/areas/invoiceItems/model';
import { requestsTo } from '../support';
import { ITEMS, itemSandbox } from './support';

const { box, runItem } = itemSandbox(31);

/**
 * The service acts, then its answer is lost; the node repeats the change (it ends in the same state
 * however often it arrives), and the repeat is refused because the change was made: that is a
 * success, confirmed, not a failure.
 */
describe('invoice item changes whose answer was lost', () => {
	const item = (status: 'Active' | 'Deactivated') => {
		const created = addItem(box.sandbox.state, {
			item_name: `Lost ${status} ${Math.random()}`,
			item_rate_per_unit: 2,
			item_category: 'Food',
		});
		box.sandbox.state.invoiceItems.get(created.data_id)!.status = status;
		return created.data_id;
	};

	it.each([
		[
			'activate',
			'Deactivated',
			'Item is already active',
			(id: string) => box.sandbox.state.invoiceItems.get(id)?.status === 'Active',
		],
		[
			'deactivate',
			'Active',
			'Item is already deactivated',
			(id: string) => box.sandbox.state.invoiceItems.get(id)?.status === 'Deactivated',
		],
		['delete', 'Active', 'Item not found', (id: string) => !box.sandbox.state.invoiceItems.has(id)],
	] as const)(
		'%s: reported as done, confirmed by the repeat',
		async (action, status, answer, done) => {
			const dataId = item(status);
			box.sandbox.faults.inject({ kind: 'dropAnswer', path: `${ITEMS}/${action}` });
			const result = await runItem(action, { dataId });
			expect(result.error).toBeUndefined();
			expect(requestsTo(box.sandbox, `${ITEMS}/${action}`)).toHaveLength(2);
			expect(result.outputs.Gateway[0].json).toMatchObject({
				data_id: dataId,
				success: true,
				confirmedByDuplicate: true,
			});
			expect(String(result.outputs.Gateway[0].json.message)).toContain(answer);
			expect(done(dataId)).toBe(true);
		},
	);

	it('without a lost answer, "already active" stays the service failure', async () => {
		const dataId = item('Active');
		const result = await runItem('activate', { dataId });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('Item is already active');
	});
});
