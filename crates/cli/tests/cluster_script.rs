//! `scripts/cluster.sh up` installs what a cluster needs when it is missing: PostgreSQL and
//! HAProxy alike, from Debian (issue 46: it installed PostgreSQL but stopped at a missing
//! HAProxy). Run with a stand-in `apt-get` first on `PATH` that only notes its arguments, and
//! `CARDTABLE_HAPROXY` naming a binary that does not exist: the script must ask apt-get for
//! haproxy, then say it is still missing (the stand-in installed nothing), and start nothing.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

#[test]
fn cluster_up_installs_a_missing_haproxy_as_it_installs_postgresql() {
    let dir = std::env::temp_dir().join(format!("cardtable-cluster-script-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.join("apt.log");
    let apt = bin.join("apt-get");
    std::fs::write(&apt, format!("#!/bin/sh\necho \"apt-get $*\" >> '{}'\nexit 0\n", log.display())).unwrap();
    std::fs::set_permissions(&apt, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/cluster.sh");
    let state = dir.join("state");
    let out = Command::new("bash")
        .arg(&script)
        .args(["up", "1"])
        .env("PATH", format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default()))
        .env("CARDTABLE_HAPROXY", dir.join("no-haproxy"))
        .env("CARDTABLE_CLUSTER_DIR", &state)
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let asked = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.status.success(), "up went on without haproxy: {stderr}");
    assert!(
        asked.contains("install -y -qq haproxy"),
        "apt-get was not asked for haproxy (asked: {asked:?}); stderr: {stderr}"
    );
    assert!(stderr.contains("installing Debian's haproxy"), "{stderr}");
    assert!(stderr.contains("haproxy is still missing after apt-get install haproxy"), "{stderr}");
    assert!(!state.exists(), "a cluster was started without haproxy");
}
