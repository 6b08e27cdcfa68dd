// The providers of this app: same origin as the server (API.md), so every call is /<service>/<call>.
import { createAuthProvider } from './authProvider/index';
import { legacyDataProvider } from './dataProvider/index';

export const dataProvider = legacyDataProvider('');
export const authProvider = createAuthProvider('');
