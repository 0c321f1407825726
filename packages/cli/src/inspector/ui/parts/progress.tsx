/** A call's progress (notifications/progress): a bar when the total is known, a count otherwise. */
export function ProgressBar({ progress }: { progress?: { progress: number; total?: number; message?: string } }) {
  if (!progress) {
    return (
      <div class="progress">
        <progress aria-label="Waiting for the server" />
      </div>
    );
  }
  const { total } = progress;
  return (
    <div class="progress">
      <progress aria-label="Progress" value={progress.progress} max={total ?? undefined} />
      <span class="progress-text">
        {total ? `${progress.progress} / ${total}` : progress.progress}
        {progress.message && ` · ${progress.message}`}
      </span>
    </div>
  );
}
