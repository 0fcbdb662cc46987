import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import '../i18n/i18n.ts';
import { AlertDialogProvider, useAlert } from './alert-dialog.tsx';
import { Modal } from './modal.tsx';
import { type ModalStackApi, ModalStackProvider, useModalStack } from './modal-stack-provider.tsx';

let alerts: ReturnType<typeof useAlert>;
let modals: ModalStackApi;

function Capture() {
  alerts = useAlert();
  modals = useModalStack();
  return (
    <Modal name="first" title="First modal">
      <p>first body</p>
    </Modal>
  );
}

function renderProviders() {
  render(
    <ModalStackProvider>
      <AlertDialogProvider>
        <Capture />
      </AlertDialogProvider>
    </ModalStackProvider>,
  );
}

let askedOnMount: Promise<boolean> = Promise.resolve(false);

/** Asks as it first appears, like a page that needs a login (its effect runs before the provider's). */
function AskOnMount() {
  const { confirm } = useAlert();
  useEffect(() => {
    askedOnMount = confirm({ message: 'Log in first?', confirmLabel: 'Log in' });
  }, [confirm]);
  return null;
}

afterEach(cleanup);

describe('alert and confirm dialogs in the modal stack', () => {
  it('resolves a confirm with the button pressed', async () => {
    renderProviders();
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = alerts.confirm({ message: 'Delete?', confirmLabel: 'Yes', cancelLabel: 'No' });
    });
    // The dialog's code loads with the first dialog asked for.
    expect((await screen.findByRole('alertdialog')).textContent).toContain('Delete?');
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    await expect(answer).resolves.toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(modals.stack).toEqual([]);
  });

  it('shares one dialog between two requests with the same name', async () => {
    renderProviders();
    let first: Promise<boolean> = Promise.resolve(false);
    let second: Promise<boolean> = Promise.resolve(false);
    act(() => {
      first = alerts.confirm({ name: 'ask', message: 'Once?', cancelLabel: 'No' });
      second = alerts.confirm({ name: 'ask', message: 'Once?', cancelLabel: 'No' });
    });
    expect(await screen.findAllByRole('alertdialog')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    await expect(first).resolves.toBe(false);
    await expect(second).resolves.toBe(false);
  });

  it('stacks an alert over a modal; the modal cannot close by name while the alert is on top', async () => {
    renderProviders();
    act(() => {
      modals.open('first');
    });
    expect(screen.getByRole('dialog', { name: 'First modal' })).toBeTruthy();
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = alerts.alert({ message: 'Saved' });
    });
    expect(modals.stack).toHaveLength(2);
    act(() => {
      expect(modals.close('first')).toBe(false);
    });
    expect(modals.stack).toHaveLength(2);
    fireEvent.click(await screen.findByRole('button', { name: '확인' }));
    await done;
    expect(modals.stack).toEqual(['first']);
    act(() => {
      expect(modals.close()).toBe(true);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('answers "no" for dialogs closed by closeAll (a session ended)', async () => {
    renderProviders();
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      modals.open('first');
      answer = alerts.confirm({ message: 'Still there?' });
    });
    act(() => modals.closeAll());
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps a dialog that a child asks for as it mounts with the providers (one commit)', async () => {
    render(
      <ModalStackProvider>
        <AlertDialogProvider>
          <AskOnMount />
        </AlertDialogProvider>
      </ModalStackProvider>,
    );
    expect((await screen.findByRole('alertdialog')).textContent).toContain('Log in first?');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await expect(askedOnMount).resolves.toBe(true);
  });
});
