"""engineio.py -- line-oriented subprocess I/O for chess engines (CECP or UCI).

A reader thread turns the engine's stdout into a queue of (timestamp, line); every read
takes a timeout, so no caller can hang on a silent engine. Used by referee.py.
"""
import os
import queue
import shlex
import signal
import subprocess
import threading
import time


class EngineDied(Exception):
    pass


class Engine:
    def __init__(self, cmd, name=None, log=None, cwd=None, stderr_to_stdout=False):
        self.argv = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
        self.name = name or os.path.basename(self.argv[0])
        self.log = log                  # callable(str) or None
        self.q = queue.Queue()
        self.t_start = time.time()
        self.p = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=(subprocess.STDOUT if stderr_to_stdout else subprocess.DEVNULL),
                                  cwd=cwd, bufsize=0, start_new_session=True)
        self.eof = False
        self.th = threading.Thread(target=self._reader, daemon=True)
        self.th.start()

    def _reader(self):
        buf = b""
        fd = self.p.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                if buf:
                    self.q.put((time.time(), buf.decode("utf-8", "replace").rstrip("\r")))
                self.q.put((time.time(), None))
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self.q.put((time.time(), line.decode("utf-8", "replace").rstrip("\r")))

    # ------------------------------------------------------------------ sending
    def send(self, s):
        if self.log:
            self.log("%s < %s" % (self.name, s))
        try:
            self.p.stdin.write((s + "\n").encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineDied("%s: stdin closed" % self.name)

    # ------------------------------------------------------------------ reading
    def readline(self, timeout):
        """Next line or None on timeout. Raises EngineDied on EOF."""
        if self.eof:
            raise EngineDied("%s: exited" % self.name)
        try:
            ts, line = self.q.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if line is None:
            self.eof = True
            raise EngineDied("%s: exited (rc=%s)" % (self.name, self.p.poll()))
        if self.log:
            self.log("%s > %s" % (self.name, line))
        self.last_ts = ts
        return line

    def read_until(self, pred, timeout):
        """Read lines until pred(line) is true. Returns (lines, matched_line or None)."""
        end = time.time() + timeout
        lines = []
        while True:
            rem = end - time.time()
            if rem <= 0:
                return lines, None
            line = self.readline(rem)
            if line is None:
                return lines, None
            lines.append(line)
            if pred(line):
                return lines, line

    def collect(self, seconds):
        """All lines that arrive within `seconds` (EOF ends early)."""
        end = time.time() + seconds
        lines = []
        while True:
            rem = end - time.time()
            if rem <= 0:
                return lines
            try:
                line = self.readline(rem)
            except EngineDied:
                return lines
            if line is None:
                return lines
            lines.append(line)

    def drain(self):
        lines = []
        while True:
            try:
                ts, line = self.q.get_nowait()
            except queue.Empty:
                return lines
            if line is None:
                self.eof = True
                return lines
            if self.log:
                self.log("%s > %s" % (self.name, line))
            lines.append(line)

    # ------------------------------------------------------------------ lifetime
    def alive(self):
        return self.p.poll() is None

    def interrupt(self):
        try:
            self.p.send_signal(signal.SIGINT)
        except Exception:
            pass

    def close(self, quit_cmd="quit", grace=1.0):
        """Polite quit, then SIGTERM, then SIGKILL -- only this engine's own process group."""
        if self.p.poll() is None:
            try:
                if quit_cmd:
                    self.send(quit_cmd)
            except EngineDied:
                pass
            try:
                self.p.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGTERM)
            except Exception:
                self.p.terminate()
            try:
                self.p.wait(1.0)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.p.pid, signal.SIGKILL)
                except Exception:
                    self.p.kill()
                self.p.wait(2.0)
        return self.p.returncode
