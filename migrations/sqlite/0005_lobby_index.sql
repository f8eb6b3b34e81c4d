-- The lobby's page of rooms (GET /api/rooms): public rooms by state, newest first.
CREATE INDEX rooms_lobby ON rooms (private, state, created_at DESC, id DESC);
