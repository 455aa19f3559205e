"""`wishlist serve` options seen from outside: the access log is off unless asked for."""

import urllib.request

from conftest import WishlistServer


def visit(server, path):
    with urllib.request.urlopen(server.url + path, timeout=5) as response:
        return response.status


def test_requests_are_logged_only_with_access_log(tmp_path, seeded_folder):
    for arguments, logged in (((), False), (("--access-log",), True)):
        data_dir = tmp_path / ("logged" if logged else "quiet") / "data"
        server = WishlistServer(data_dir, arguments=arguments, template=seeded_folder)
        server.start()
        try:
            assert visit(server, "/goals?from=access-log-test") == 200
        finally:
            server.stop()
        log = server.log.read_text()
        assert "Wishlist is ready" in log
        assert ("GET /goals 200" in log) == logged, log
