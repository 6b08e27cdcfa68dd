// What the server's render needs of the browser's globals, declared as absent.
//
// react-admin's Layout renders its preferences Inspector, which reads `document?.body.clientWidth`
// while rendering: optional chaining on a name Node does not declare throws. Declared (as
// undefined), it reads as react-admin intends, and `typeof document` stays 'undefined' for every
// other check. serverGlobals.spec.tsx fails by name once react-admin's Layout no longer needs it.
export function declareServerGlobals(): void {
  if (!('document' in globalThis)) Object.defineProperty(globalThis, 'document', { value: undefined, writable: true, configurable: true });
}
