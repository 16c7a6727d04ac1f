/** Largest file the upload endpoints take (seed: payout_file, payment_link_file, documents). */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
