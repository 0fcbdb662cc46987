import { type ConfirmOptions, useAlert } from './alert-dialog.tsx';
import { useToast } from './toast.tsx';

/**
 * A change the user confirms first (retiring a lab range, switching the training gate): asked with
 * `question`, then `run`; its success said in a toast (`done`), its failure in an alert under the
 * question's title.
 */
export function useConfirmedChange(): (
  question: ConfirmOptions,
  run: () => Promise<unknown>,
  done: string,
) => Promise<void> {
  const alert = useAlert();
  const toast = useToast();
  return async (question, run, done) => {
    if (!(await alert.confirm(question))) return;
    try {
      await run();
      toast(done, 'success');
    } catch (failure) {
      await alert.alert({
        title: question.title,
        message: failure instanceof Error ? failure.message : String(failure),
      });
    }
  };
}
