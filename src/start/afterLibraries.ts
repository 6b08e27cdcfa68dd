// main.tsx imports this right after react-admin (with MUI, react-router, react-query), before the
// app's own code: that evaluation too goes on in a task of its own (afterReact.ts says how).
import { nextTask } from './nextTask';

await nextTask();
