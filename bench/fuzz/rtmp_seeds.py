"""Hand-made RTMP client chunk streams (what follows C2), for what ffmpeg never sends: AMF3 commands,
extended timestamps, header types 1-3, wide chunk stream ids, Abort, odd commands. Writes the seeds of
ChunkStreamFuzzTest: python3 bench/fuzz/rtmp_seeds.py vertx-net/src/test/resources/org/groovecast/net/rtmp/ChunkStreamFuzzTestInputs"""
import struct, sys, os

def amf(v):
    if v is None: return b'\x05'
    if isinstance(v, bool): return b'\x01' + (b'\x01' if v else b'\x00')
    if isinstance(v, (int, float)): return b'\x00' + struct.pack('>d', float(v))
    if isinstance(v, str):
        b = v.encode()
        return (b'\x02' + struct.pack('>H', len(b)) if len(b) < 65536 else b'\x0c' + struct.pack('>I', len(b))) + b
    if isinstance(v, dict):
        out = b'\x03'
        for k, x in v.items():
            kb = k.encode(); out += struct.pack('>H', len(kb)) + kb + amf(x)
        return out + b'\x00\x00\x09'
    if isinstance(v, list):
        return b'\x0a' + struct.pack('>I', len(v)) + b''.join(amf(x) for x in v)
    raise TypeError(v)

def ecma(d):
    out = b'\x08' + struct.pack('>I', len(d))
    for k, x in d.items():
        kb = k.encode(); out += struct.pack('>H', len(kb)) + kb + amf(x)
    return out + b'\x00\x00\x09'

def basic(fmt, csid):
    if csid < 64: return bytes([(fmt << 6) | csid])
    if csid < 320: return bytes([fmt << 6, csid - 64])
    return bytes([(fmt << 6) | 1, (csid - 64) & 0xff, (csid - 64) >> 8])

class Writer:
    def __init__(self): self.out = b''; self.chunk = 128
    def msg(self, csid, typ, sid, ts, payload, fmt=0, ext_repeat=True):
        ext = ts >= 0xFFFFFF
        field = 0xFFFFFF if ext else ts
        h = basic(fmt, csid) + field.to_bytes(3, 'big')
        if fmt <= 1: h += len(payload).to_bytes(3, 'big') + bytes([typ])
        if fmt == 0: h += struct.pack('<I', sid)
        if ext: h += struct.pack('>I', ts)
        first = True; p = 0
        while first or p < len(payload):
            if not first:
                h = basic(3, csid) + (struct.pack('>I', ts) if ext and ext_repeat else b'')
            n = min(self.chunk, len(payload) - p)
            self.out += h + payload[p:p + n]; p += n; first = False
        return self
    def control(self, typ, value):
        return self.msg(2, typ, 0, 0, struct.pack('>I', value))
    def set_chunk_size(self, n):
        self.control(1, n); self.chunk = n; return self
    def command(self, name, txn, *args, csid=3, sid=0, amf3=False):
        body = amf(name) + amf(txn) + b''.join(amf(a) for a in args)
        return self.msg(csid, 17 if amf3 else 20, sid, 0, (b'\x00' if amf3 else b'') + body)

CONNECT = {'app': 'live', 'type': 'nonprivate', 'flashVer': 'FMLE/3.0 (compatible; FMSc/1.0)',
           'tcUrl': 'rtmp://127.0.0.1:1935/live'}
META = {'duration': 0, 'width': 64, 'height': 48, 'videocodecid': 7, 'audiocodecid': 10,
        'framerate': 10, 'encoder': 'Lavf'}
AVC_HEADER = bytes.fromhex('1700000000014d000aFFE10017674d000a9196847b011000000300100000030140f1226a01000568ebecb22c')
AAC_HEADER = bytes.fromhex('af001388')
KEYFRAME = bytes.fromhex('1701000000') + bytes(range(64))
INTER = bytes.fromhex('2701000021') + bytes(range(32))
AAC = bytes.fromhex('af01') + bytes(range(40))

def publish(w, key='test', amf3=False, app=None):
    c = dict(CONNECT)
    if app is not None: c['app'] = app
    w.command('connect', 1, c, amf3=amf3)
    w.command('releaseStream', 2, None, key, amf3=amf3)
    w.command('FCPublish', 3, None, key, amf3=amf3)
    w.command('createStream', 4, None, amf3=amf3)
    w.command('publish', 5, None, key, 'live', csid=8, sid=1, amf3=amf3)
    return w

def media(w, n=3):
    w.msg(4, 18, 1, 0, amf('@setDataFrame') + amf('onMetaData') + ecma(META))
    w.msg(6, 9, 1, 0, AVC_HEADER)
    w.msg(4, 8, 1, 0, AAC_HEADER)
    for i in range(n):
        w.msg(6, 9, 1, 100 * i, KEYFRAME if i % 3 == 0 else INTER)
        w.msg(4, 8, 1, 100 * i + 23, AAC)
    return w

seeds = {}
seeds['amf3-commands'] = publish(Writer(), amf3=True).msg(4, 15, 1, 0, b'\x00' + amf('@setDataFrame') + amf('onMetaData') + ecma(META)).out
w = publish(Writer()); w.set_chunk_size(4096); media(w, 4); seeds['publish-chunk-size-4096'] = w.out
w = publish(Writer()); media(w, 2); w.command('FCUnpublish', 6, None, 'test'); w.command('deleteStream', 7, None, 1); publish(w, 'again'); seeds['publish-unpublish-publish'] = w.out
w = Writer().command('connect', 1, CONNECT).command('createStream', 2, None)
w.command('getStreamLength', 3, None, 'test', csid=8, sid=1).command('play', 4, None, 'test', -2000, csid=8, sid=1)
w.msg(2, 4, 0, 0, struct.pack('>HII', 3, 1, 3000))  # set buffer length
seeds['play-unknown-stream'] = w.out
w = publish(Writer()); media(w, 1); w.command('connect', 1, CONNECT); w.command('createStream', 2, None); w.command('play', 3, None, 'test', csid=8, sid=2); media(w, 3); seeds['publish-and-play-own-stream'] = w.out
w = Writer(); w.control(5, 64); w.msg(2, 6, 0, 0, struct.pack('>IB', 2500000, 2))
w.msg(2, 4, 0, 0, struct.pack('>HI', 6, 12345)); publish(w); media(w, 3); seeds['window-ack-and-ping'] = w.out
w = publish(Writer())
w.msg(6, 9, 1, 0xFFFFFF + 10, KEYFRAME * 3)                # extended timestamp, repeated on type 3 chunks
w.msg(6, 9, 1, 0x1000000, INTER * 5, ext_repeat=False)     # extended timestamp, not repeated
w.out += basic(1, 4) + (0x10).to_bytes(3, 'big') + len(AAC).to_bytes(3, 'big') + bytes([8]) + AAC  # type 1 delta (first on csid 4 needs type 0)
seeds['extended-timestamps'] = w.out
w = publish(Writer()); w.msg(4, 8, 1, 0, AAC)
w.out += basic(1, 4) + (23).to_bytes(3, 'big') + len(AAC).to_bytes(3, 'big') + bytes([8]) + AAC   # type 1: delta 23
w.out += basic(2, 4) + (23).to_bytes(3, 'big') + AAC                                                # type 2: same length
w.out += basic(3, 4) + AAC                                                                          # type 3: a new message, same delta
seeds['header-types-0123'] = w.out
w = Writer(); w.command('connect', 1, CONNECT, csid=64); w.command('createStream', 2, None, csid=319)
w.command('publish', 3, None, 'wide', 'live', csid=320, sid=1); w.msg(1000, 9, 1, 0, KEYFRAME); seeds['wide-chunk-stream-ids'] = w.out
w = publish(Writer()); big = bytes(1000)
part = basic(0, 6) + (0).to_bytes(3, 'big') + len(big).to_bytes(3, 'big') + bytes([9]) + struct.pack('<I', 1) + big[:128]
w.out += part; w.msg(2, 2, 0, 0, struct.pack('>I', 6)); w.msg(6, 9, 1, 0, KEYFRAME); seeds['abort-a-message'] = w.out
w = Writer().command('connect', 1, {'app': 'live?token=x/', 'objectEncoding': 3})
w.command('createStream', 2, None).command('publish', 3, None, 'key?user=a%20b&pass=%2F&flag', 'live', csid=8, sid=1)
w.command('noSuchCommand', 9, None, 'x').command('_checkbw', 10, None).command('closeStream', 11, None, csid=8, sid=1)
seeds['query-strings-and-odd-commands'] = w.out
w = Writer().command('connect', 1, {'app': 'live', 'nested': {'a': [1, 'b', {'c': None}], 'd': True}})
w.msg(3, 20, 0, 0, amf(1.0) + amf('no name first'))  # a command without a name: protocol error
seeds['command-without-name'] = w.out
seeds['set-chunk-size-zero'] = Writer().control(1, 0).out
seeds['unknown-message-type'] = Writer().msg(3, 7, 0, 0, b'xyz').out

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
for k, v in seeds.items():
    open(os.path.join(d, k), 'wb').write(v)
    print(k, len(v))
