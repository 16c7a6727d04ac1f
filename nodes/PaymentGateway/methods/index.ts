export { credentialTest } from './credentialTest';
