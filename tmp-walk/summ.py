#!/usr/bin/env python3
"""Summarise a gpuplan answer for a human review (walk5). Usage: summ.py REQ.json"""
import json, subprocess, sys, math
req = sys.argv[1]
p = subprocess.run(['build/native/bin/gpuplan', 'plan', req], capture_output=True, text=True)
print('== %s (rc %d)' % (req, p.returncode))
txt = p.stdout or p.stderr
if 'NaN' in txt or 'Infinity' in txt: print('!! NaN/Infinity in output')
try: r = json.loads(txt)
except Exception as e: print('!! not JSON', txt[:500]); sys.exit()
if 'error' in r: print('ERROR', json.dumps(r['error'], ensure_ascii=False)); sys.exit()
m = r.get('memory')
if m:
    s = sum(c['bytes'] for c in m['components'])
    tot = m['per_gpu']['total_bytes']
    print('memory total %.2f GiB (components sum %.2f) %s' % (tot/2**30, s/2**30,
          ', '.join('%s %.2f' % (c['id'], c['bytes']/2**30) for c in m['components'])))
for w in r.get('warnings', []): print('W', w['code'], ':', w['message'])
odd = [(g['id'], g['count']) for g in r.get('gpus', []) if g.get('fits') and g['count'] not in (1,2,4,8,16,32,64)]
if odd: print('gpus[] odd counts:', odd)
fitg = [(g['id'], g['count'], g.get('fit'), round(g.get('hours') or 0,1), g.get('platform'), round(g['cost'],1) if 'cost' in g else None) for g in r.get('gpus', []) if g.get('fits')]
print('gpus[] fitting:', fitg[:40])
pl = r.get('plan')
if pl:
    print('plan feasible %s within_budget %s meets_deadline %s total %.2f %s wall %.1f h cat %s' % (
        pl['feasible'], pl['within_budget'], pl['meets_deadline'], pl['total_cost'], pl['currency'], pl['wall_hours'], pl['category']))
    for st in pl['stages']:
        if not st.get('feasible'): print(' stage', st['stage'], 'INFEASIBLE', st.get('why')); continue
        chk = st['price_per_gpu_hour']*st['count']*st['hours']
        print(' stage %s: %s x%d (per run %d, par %d, inst %d) %s %s @%.2f/h hours %.2f run_h %.2f wall %.2f cost %.2f (compute %.2f; price*count*hours=%.2f) storage %.2f credit %.2f sharding %s fit %s changes %s' % (
            st['stage'], st['gpu'], st['count'], st['gpus_per_run'], st['parallel_runs'], st.get('instances',1), st['platform'], st['billing'],
            st['price_per_gpu_hour'], st['hours'], st['run_hours'], st['wall_hours'], st['cost'], st['compute_cost'], chk,
            st['storage_cost'], st['credit'], st['sharding'], st['fit'], st['workload_changes']))
        print('   why:', st['why'])
        for a in st.get('alternatives', []): print('   alt %s: %s x%d %s %s %.2f/h h %.2f cost %.2f' % (a['kind'], a['gpu'], a['count'], a['platform'], a['billing'], a['price_per_gpu_hour'], a['hours'], a['cost']))
    for c in pl.get('changes', []): print(' change', c['code'], round(c['saving'],2), round(c['new_total'],2), c['message'])
    for a in pl.get('advice', []): print(' advice', a['code'], a['message'][:300])
    print(' category_advice:', pl.get('category_advice'))
    if 'group' in pl: print(' group', pl['group'])
    if 'rent_vs_buy' in pl: rb = pl['rent_vs_buy']; print(' rent_vs_buy', rb['gpu'], rb['cheaper'], round(rb['gpu_hours'],1), rb.get('source'))
od = r.get('oom_doctor')
if od: print('oom_doctor', json.dumps(od, ensure_ascii=False)[:1500])
