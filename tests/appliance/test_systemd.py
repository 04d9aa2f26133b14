"""The systemd unit and the install script: the properties the appliance relies on."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"


def unit() -> dict[str, str]:
    """Key -> value of jasscam.service (a repeated key, like Environment=, keeps the last)."""
    out: dict[str, str] = {}
    for line in (SYSTEMD / "jasscam.service").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out[key] = value
    return out


def test_the_unit_is_a_notify_service_with_watchdog_restart_and_state_directory() -> None:
    u = unit()
    assert u["Type"] == "notify" and int(u["WatchdogSec"]) >= 10
    assert u["Restart"] == "on-failure" and u["StateDirectory"] == "jasscam"
    assert u["ExecStart"].endswith("jasscam run")
    assert "video" in u["SupplementaryGroups"].split()


def test_the_hardening_does_not_hide_the_camera_devices() -> None:
    u = unit()
    for hiding in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "InaccessiblePaths"):
        assert hiding not in u, f"{hiding} would hide /dev/video*, /dev/media* or /dev/dma_heap"
    assert u["ProtectSystem"] == "strict" and u["NoNewPrivileges"] == "yes"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    text = (SYSTEMD / "jasscam.service").read_text().replace("/opt/jasscam/venv/bin/jasscam run", "/bin/true")
    copy = tmp_path / "jasscam.service"
    copy.write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_install_script_is_valid_bash_and_makes_a_system_site_packages_venv() -> None:
    script = SYSTEMD / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text()
    assert "--system-site-packages" in text and "python3-picamera2" in text
    assert "useradd --system" in text and "--groups video" in text
    help_text = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True)
    assert help_text.returncode == 0 and "Raspberry Pi OS" in help_text.stdout
