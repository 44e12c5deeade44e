# Runs the Autobahn|Testsuite fuzzing server (wstest -m fuzzingserver) bound to 127.0.0.1 only.
#
# autobahntestsuite 0.8.2 listens on every interface and has no option to change it: this
# wrapper gives its listenWS the loopback interface, then runs wstest with the arguments given.
# Python 2.7 (the suite does not start on Python 3). AUTOBAHN_SITE names the site-packages of
# the prefix the suite was installed under (added as a site dir, so namespace packages load).
import os
import re
import site
import sys

if os.environ.get('AUTOBAHN_SITE'):
    site.addsitedir(os.environ['AUTOBAHN_SITE'])

from autobahn.twisted import websocket
import autobahntestsuite.fuzzing as fuzzing

_listen = websocket.listenWS


def listen_on_loopback(factory, contextFactory=None, backlog=50, interface='127.0.0.1'):
    return _listen(factory, contextFactory, backlog, interface='127.0.0.1')


fuzzing.listenWS = listen_on_loopback

from autobahntestsuite.wstest import run  # noqa: E402

if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\.pyw?|\.exe)?$', '', sys.argv[0])
    sys.exit(run())
