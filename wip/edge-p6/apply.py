ROOT='/work/wt/edge/'
def edit(p, pairs):
    s=open(ROOT+p).read()
    for old,new in pairs:
        assert old in s, (p, old[:70])
        s=s.replace(old,new,1)
    open(ROOT+p,'w').write(s)

edit('server/src/room/core.rs', [
('''        if !self.followers.contains(conn) && self.followers.len() >= self.max_followers {
            return Err(ApiError::conflict(
                codes::TOO_MANY_CONNECTIONS,
                "this room accepts no more connections",
            ));
        }
        let viewer = self.viewer_of(identity.as_ref());
        let room = room_for(
            &self.record,
            &self.followers,
            &self.takeovers(),
            identity.as_ref(),
        );
        self.send(vec![conn], ServerMsg::Room { room });''','''        let again = self.followers.contains(conn);
        // Spectators have their own cap: a seated player always gets in.
        let seated = seat_of(&self.record, identity.as_ref()).is_some();
        if !again && !seated && self.spectators() >= self.max_followers {
            return Err(ApiError::conflict(
                codes::TOO_MANY_CONNECTIONS,
                "this room accepts no more spectators",
            ));
        }
        self.followers.insert(
            conn,
            Follower {
                identity: identity.clone(),
            },
        );
        let viewer = self.viewer_of(identity.as_ref());
        let room = room_for(
            &self.record,
            &self.followers,
            &self.takeovers(),
            identity.as_ref(),
        );
        self.send(vec![conn], ServerMsg::Room { room });'''),
('''        self.followers.insert(
            conn,
            Follower {
                identity: identity.clone(),
            },
        );
        self.publish();
        self.social_joined(conn, identity.as_ref(), now);
        Ok(())
    }''','''        // The others hear of a new follower (presence, spectators); a repeated join changes
        // nothing for them, so only its sender is answered.
        if !again {
            self.publish_except(Some(conn));
        }
        self.social_joined(conn, identity.as_ref(), now);
        Ok(())
    }

    /// How many followers hold no seat.
    fn spectators(&self) -> usize {
        let record = &self.record;
        self.followers
            .iter()
            .filter(|(_, f)| seat_of(record, f.identity.as_ref()).is_none())
            .count()
    }'''),
('''    pub(super) fn publish(&mut self) {
        let record = &self.record;''','''    pub(super) fn publish(&mut self) {
        self.publish_except(None);
    }

    /// [`Self::publish`], leaving out `except` (a joiner already sent its own `room`).
    fn publish_except(&mut self, except: Option<ConnId>) {
        let record = &self.record;'''),
('''            let room = room_for(
                &self.record,
                &self.followers,
                &takeovers,
                insider.flatten().as_ref(),
            );
            self.send(conns, ServerMsg::Room { room });''','''            let conns: Vec<ConnId> = conns.into_iter().filter(|c| Some(*c) != except).collect();
            if conns.is_empty() {
                continue;
            }
            let room = room_for(
                &self.record,
                &self.followers,
                &takeovers,
                insider.flatten().as_ref(),
            );
            self.send(conns, ServerMsg::Room { room });'''),
])
