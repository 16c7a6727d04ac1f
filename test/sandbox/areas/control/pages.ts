import { json, type Reply } from '../../core/http';
import type { RouteModule } from '../../core/router';
import type { SandboxState } from '../../core/state';

/**
 * Pages for the addresses the sandbox and `npm start` print, so that opening one in a browser
 * shows what is there instead of a 404: the controls, the orders, the checkout and the payout API.
 */

export const escape = (value: unknown): string =>
	String(value).replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);

export const page = (title: string, body: string): Reply => ({
	status: 200,
	contentType: 'text/html; charset=utf-8',
	text: `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${escape(title)}</title></head>\n<body>\n<h1>${escape(title)}</h1>\n${body}\n</body>\n</html>\n`,
});

/**
 * A browser's Accept (text/html without application/json): such controls answer with a page;
 * anything else (fetch's default, any type; application/json) keeps JSON.
 */
export const prefersHtml = (headers: Record<string, string>): boolean => {
	const accept = (headers.accept ?? '').toLowerCase();
	return accept.includes('text/html') && !accept.includes('application/json');
};

export const link = (href: string, text = href) => `<a href="${escape(href)}">${escape(text)}</a>`;

/** Read-only controls a browser can open; the others change the sandbox and take other methods. */
const READABLE = [
	['/__sandbox/orders', 'orders created in this run, with their checkout pages'],
	['/__sandbox/settings', 'merchant account switches (PUT to change, DELETE to reset)'],
	['/__sandbox/events', 'payment events and webhook deliveries'],
	['/__sandbox/requests', 'every service request received (DELETE to clear)'],
	['/__sandbox/state/summary', 'counts of everything held'],
	['/__sandbox/payment-links', 'payment links created'],
	['/__sandbox/payouts', 'payout batches received'],
	['/__sandbox/subscription-plans', 'subscription plans created'],
];

/** Orders of this run, newest first, each with its hosted page while it can be paid. */
function orders(state: SandboxState) {
	return [...state.orders.values()]
		.sort((a, b) => b.createdAt - a.createdAt)
		.map((order) => ({
			p_order_id: order.p_order_id,
			action: order.action,
			channel: order.channel,
			status: state.transactionsByPOrderId.get(order.p_order_id)?.status,
			payment_link: order.open ? `${state.checkoutUrl}/pay/${order.p_order_id}` : undefined,
			created_at: new Date(order.createdAt).toISOString(),
		}));
}

export const registerPageRoutes: RouteModule = (router, env) => {
	const base = () => env.state.checkoutUrl.replace(/\/checkout$/, '');
	const controls = () =>
		page(
			'Payment service sandbox',
			`<p>The service answers under ${escape(base())} to requests with merchant keys (docs/sandbox.md); ` +
				`hosted payment pages are under ${link(`${base()}/checkout`)}. Controls:</p>\n` +
				`<ul>\n${READABLE.map(([path, what]) => `<li>${link(base() + path)}: ${escape(what)}</li>`).join('\n')}\n</ul>`,
		);
	for (const path of ['/', '/__sandbox/'])
		router.add({ method: 'GET', path, auth: 'none', handler: controls });
	router.add({
		method: 'GET',
		path: '/__sandbox/orders',
		auth: 'none',
		handler: () => json(200, { status: 'success', data: orders(env.state) }),
	});
	router.add({
		method: 'GET',
		path: '/checkout',
		auth: 'none',
		handler: () => {
			const open = orders(env.state).filter((order) => order.payment_link);
			const list = open.length
				? `<ul>\n${open.map((o) => `<li>${link(o.payment_link as string, `Pay order ${o.p_order_id}`)} (${escape(o.status)})</li>`).join('\n')}\n</ul>`
				: '<p>No order is waiting for payment yet. Create one (Order → Create Payment): its payment_link opens its page here.</p>';
			return page('Payment service sandbox: checkout', list);
		},
	});
	router.add({
		method: 'GET',
		path: '/payout',
		auth: 'none',
		handler: () =>
			page(
				'Payment service sandbox: payout API',
				"<p>The Payout credential's Payout URL. The node calls POST /payout/v1/token and POST /payout/v1/bulk/payouts here; a browser has nothing to open.</p>" +
					`<p>Payout batches received: ${link(`${base()}/__sandbox/payouts`)}</p>`,
			),
	});
};
