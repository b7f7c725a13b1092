/** A process with the crash guard that hits an unhandled 'error' event, then says it lives on. */
import { EventEmitter } from 'node:events';
import { installCrashGuard } from '../../src/main/host/crash-guard';

const noop = (): void => undefined;
installCrashGuard({
  logger: { debug: noop, info: noop, warn: noop, error: noop },
  onFatal: () => process.exit(3),
});
setTimeout(() => new EventEmitter().emit('error', new Error('connect ENETUNREACH')), 10);
setTimeout(() => {
  process.stdout.write('still alive after the error\n');
}, 200);
