//! `specdesk-sandbox [--addr 127.0.0.1:8787] [--time-scale 1.0] [--keepalive-ms 10000] [--state FILE]`
//!
//! Prints `specdesk-sandbox listening on http://HOST:PORT` as its first stdout line, serves until
//! SIGTERM or ctrl-c, then saves its state and exits 0.

use clap::Parser;
use specdesk_sandbox::{Sandbox, SandboxConfig};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Local emulator of the Specdesk service.
#[derive(Parser, Debug)]
#[command(name = "specdesk-sandbox", version, about)]
struct Args {
    /// Address to bind (`127.0.0.1:0` takes a free port).
    #[arg(long, default_value = "127.0.0.1:8787")]
    addr: SocketAddr,
    /// Multiplies simulated work durations: 0 is instant, 1.0 demo pace.
    #[arg(long, default_value_t = 1.0)]
    time_scale: f64,
    /// Interval of `:keepalive` comments on browser-agent streams, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    keepalive_ms: u64,
    /// Persist all sandbox data in this file (written atomically) and reload it on start.
    #[arg(long = "state")]
    state: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    if !args.time_scale.is_finite() || args.time_scale < 0.0 {
        eprintln!("specdesk-sandbox: --time-scale must be a number >= 0");
        return std::process::ExitCode::from(2);
    }
    let config = SandboxConfig {
        addr: args.addr,
        time_scale: args.time_scale,
        keepalive_ms: args.keepalive_ms.max(1),
        state_file: args.state,
    };
    let sandbox = match Sandbox::start(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("specdesk-sandbox: cannot listen on {}: {e}", args.addr);
            return std::process::ExitCode::from(1);
        }
    };
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "specdesk-sandbox listening on {}", sandbox.base_url);
        let _ = out.flush();
    }
    wait_for_signal().await;
    sandbox.shutdown().await;
    std::process::ExitCode::SUCCESS
}

#[cfg(unix)]
async fn wait_for_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
            return;
        }
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}

#[cfg(not(unix))]
async fn wait_for_signal() {
    let _ = tokio::signal::ctrl_c().await;
}
