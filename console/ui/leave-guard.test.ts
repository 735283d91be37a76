import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SigningOut } from '../app/signing-out.ts';
import { guardLeaving } from './leave-guard.ts';

/** The window the guard listens on. */
const win = new EventTarget();

/** The questions signing out now asks first. */
const asked = () => {
  const e = new SigningOut();
  win.dispatchEvent(e);
  return [...e.questions];
};

/** Whether closing the tab now asks first. */
const asksBeforeClosing = () => {
  const e = new Event('beforeunload', { cancelable: true });
  // Node's Event has no returnValue to set, as a browser's BeforeUnloadEvent has.
  Object.defineProperty(e, 'returnValue', { value: true, writable: true });
  win.dispatchEvent(e);
  return e.defaultPrevented;
};

describe('guardLeaving', () => {
  beforeEach(() => {
    vi.stubGlobal('addEventListener', win.addEventListener.bind(win));
    vi.stubGlobal('removeEventListener', win.removeEventListener.bind(win));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks its question before signing out, and the browser’s before the tab closes, while the work runs and only then', async () => {
    let finish = () => {};
    const running = guardLeaving(() => new Promise<void>((resolve) => (finish = resolve)), 'signOutErasing');
    expect(asked()).toEqual(['signOutErasing']);
    expect(asksBeforeClosing()).toBe(true);
    finish();
    await running;
    expect(asked()).toEqual([]);
    expect(asksBeforeClosing()).toBe(false);
  });

  it('stops asking when the work fails', async () => {
    await expect(guardLeaving(() => Promise.reject(new Error('refused')), 'signOutErasing')).rejects.toThrow('refused');
    expect(asked()).toEqual([]);
    expect(asksBeforeClosing()).toBe(false);
  });
});
