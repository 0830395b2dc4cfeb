#!/usr/bin/env python3
"""Start-up with 50 000 open games (issue 16): the time from starting `rumis serve` to the
first answered state request, for an old and a new binary on the same SQLite file. Loopback
only, port 18931, files in /tmp/m (removed first).

    python3 scripts/server-startup.py OLD_RUMIS NEW_RUMIS

The file is made by OLD (its schema), filled with 50 000 open two-human games by SQL, then
copied: NEW's first start runs its migrations, its second start is the steady state.
"""
import subprocess, time, sqlite3, sys, urllib.request, shutil, os
shutil.rmtree('/tmp/m', ignore_errors=True)
os.makedirs('/tmp/m')
def start(binary, db, port):
    t0=time.time()
    p=subprocess.Popen([binary,'serve','--addr',f'127.0.0.1:{port}','--database-url',f'sqlite://{db}','--ai-workers','2'],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
    while True:
        try:
            with urllib.request.urlopen(f'http://127.0.0.1:{port}/api/v1/games/{GID}',timeout=30) as r:
                r.read(); break
        except Exception as e:
            if time.time()-t0>300: raise
            time.sleep(0.02)
    dt=time.time()-t0
    return p, dt
old, new = sys.argv[1], sys.argv[2]
GID='00000000000000ff'
# create the schema with the old binary
p=subprocess.Popen([old,'serve','--addr','127.0.0.1:18931','--database-url','sqlite:///tmp/m/old.db'],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
time.sleep(3); p.terminate(); p.wait()
c=sqlite3.connect('/tmp/m/old.db')
games=[]; seats=[]
for i in range(50000):
    gid=f'{i+1:016x}'
    games.append((gid,'Chullpa',2,'standard','R Y','',0,'open','R',0,i,i))
    seats.append((gid,0,'R','human',0,'x')); seats.append((gid,1,'Y','human',0,'y'))
c.executemany('insert into games values (?,?,?,?,?,?,?,?,?,?,?,?)',games)
c.executemany('insert into seats values (?,?,?,?,?,?)',seats)
c.commit(); c.close()
shutil.copy('/tmp/m/old.db','/tmp/m/new.db')
for label,binary,db in [('old',old,'/tmp/m/old.db'),('new (first start: migration 2)',new,'/tmp/m/new.db'),('new (second start)',new,'/tmp/m/new.db')]:
    p,dt=start(binary,db,18931)
    print(f'{label}: first state answered {dt:.2f} s after start')
    p.terminate(); p.wait()
