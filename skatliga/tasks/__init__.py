"""Long work in the background: jobs with a progress record (``jobs``), the task worker with
its heartbeat and the recovery of tasks whose worker died (``worker``), the process that keeps
a worker running beside the site (``keeper``), the progress page (``views``), and the tasks
themselves (``archive``: importing an archive)."""
