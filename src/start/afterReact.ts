// main.tsx imports this right after React and react-dom. A module's top-level await holds the
// evaluation of the modules imported after it until the next task: the app's code is evaluated
// in a few tasks rather than one long one (a module is evaluated once, in the order imported).
import { nextTask } from './nextTask';

await nextTask();
