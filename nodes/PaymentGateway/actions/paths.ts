/**
 * The service paths that an operation and the credential test (methods/credentialTest.ts) both
 * send to, named once here so that neither reaches into the other. The list clients
 * (transaction/list.ts, invoiceItem/list.ts) and the payout upload (payout/bulkCreate.upload.ts)
 * name their own.
 */

/** Payment Link > Deactivate; the credential test deactivates an unknown link. */
export const DEACTIVATE_LINK_PATH = '/payment-links/v1/deactivate';

/** Subscription Plan > Create; the credential test sends an empty plan. */
export const ADD_PLAN_PATH = '/subscriptions/v1/add';

/** Transaction > Get POS Order; the credential test asks for an unknown order. */
export const posOrderPath = (orderId: string) => `/pos/v1/orders/${encodeURIComponent(orderId)}`;
