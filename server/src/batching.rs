//! Taking what the ready tasks are about to queue: a task that writes many items in one go
//! (the writer's commit to the database, the relay's publish to NATS) first lets the tasks that
//! are ready run, since they are often the ones that queue the next items (the rooms woken by
//! the same commit, or by the same read). Each item it takes then rides on this write instead
//! of costing one of its own, and every write wakes another process (PostgreSQL, the NATS
//! server, the node reading it).

/// How many times [`take_what_ready_tasks_queue`] lets the ready tasks run at most.
const TURNS: usize = 4;

/// Lets the ready tasks run (`yield_now`) and takes what they queued into `batch` (from `next`,
/// until it has `max` items), and again while a turn brought more, at most [`TURNS`] times. A
/// turn of a runtime with nothing else to do costs next to nothing, so an item alone waits
/// only microseconds.
pub async fn take_what_ready_tasks_queue<T>(
    batch: &mut Vec<T>,
    max: usize,
    mut next: impl FnMut() -> Option<T>,
) {
    for _ in 0..TURNS {
        if batch.len() >= max {
            return;
        }
        tokio::task::yield_now().await;
        let before = batch.len();
        while batch.len() < max
            && let Some(item) = next()
        {
            batch.push(item);
        }
        if batch.len() == before {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::mpsc;

    use super::take_what_ready_tasks_queue;

    #[tokio::test]
    async fn it_takes_what_the_ready_tasks_queue() {
        let (sender, mut queue) = mpsc::unbounded_channel();
        for item in 0..5 {
            let sender = sender.clone();
            tokio::spawn(async move { sender.send(item) });
        }
        let mut batch = Vec::new();
        take_what_ready_tasks_queue(&mut batch, 100, || queue.try_recv().ok()).await;
        assert_eq!(batch, [0, 1, 2, 3, 4]);
    }

    #[tokio::test]
    async fn a_turn_that_brought_more_gives_the_tasks_another_until_the_last_turn() {
        let (sender, mut queue) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            for item in 0..10 {
                let _ = sender.send(item);
                tokio::task::yield_now().await;
            }
        });
        let mut batch = Vec::new();
        take_what_ready_tasks_queue(&mut batch, 100, || queue.try_recv().ok()).await;
        // One item a turn: four turns take the first four, and the rest waits for the next call.
        assert_eq!(batch, [0, 1, 2, 3]);
    }

    #[tokio::test]
    async fn it_takes_no_more_than_the_batch_holds() {
        let (sender, mut queue) = mpsc::unbounded_channel();
        for item in 0..10 {
            sender.send(item).unwrap();
        }
        let mut batch = vec![100];
        take_what_ready_tasks_queue(&mut batch, 4, || queue.try_recv().ok()).await;
        assert_eq!(batch, [100, 0, 1, 2]);
        assert_eq!(queue.len(), 7);
    }
}
