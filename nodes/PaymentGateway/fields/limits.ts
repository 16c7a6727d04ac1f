/** Largest file the service takes in any upload (documents, .xlsx sheets): 2 MB. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
