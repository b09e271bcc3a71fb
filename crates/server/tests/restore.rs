//! A room the store cannot rebuild does not keep the server, or the other rooms, from starting.

use server::lobby::Lobby;
use server::room::RoomOptions;

#[tokio::test]
async fn a_broken_room_is_left_out_and_the_others_come_back() {
    let store = store::Store::memory().unwrap();
    let good = {
        let lobby = Lobby::restore(store.clone()).await.unwrap();
        lobby.create("buckshot", RoomOptions::default()).await.unwrap()
    };
    store.save_room("broken", "buckshot", "not a snapshot".into()).await.unwrap();
    let lobby = Lobby::restore(store).await.expect("the server starts");
    assert!(lobby.contains(&good));
    assert!(!lobby.contains("broken"));
}
