(* SPDX-License-Identifier: ISC *)
(* The Coq reference functions, extracted to OCaml (Reference), run on every
   bit string up to a length and on random ones, one case a line for the C
   driver (driver.c), which runs the C function on the same bits and compares:
     <sampler> <parameters> <bits> <release>
   release: "ok <value> <bits read>", "unlikely <bits read>" (DPSEL_EUNLIKELY)
   or "random" (the string ended first: DPSEL_ERANDOM).  The last line is
   "end <number of cases>". *)
open Reference

let rec nat_of_int i = if i = 0 then O else S (nat_of_int (i - 1))

let rec int_of_nat = function O -> 0 | S n -> 1 + int_of_nat n

let bits_text bits =
  if bits = [] then "-" else String.concat "" (List.map (fun b -> if b then "1" else "0") bits)

(* Every string of exactly len bits. *)
let rec all_strings len =
  if len = 0 then [ [] ]
  else List.concat_map (fun s -> [ false :: s; true :: s ]) (all_strings (len - 1))

let random_string len = List.init len (fun _ -> Random.bool ())

let cases = ref 0

(* One case: the parameters' text, the sampler, how to print its value. *)
let case params sampler show bits =
  let release =
    match run sampler bits with
    | None -> "random"
    | Some (value, read) -> show value (int_of_nat read)
  in
  incr cases;
  Printf.printf "%s %s %s\n" params (bits_text bits) release

let show_option show value read =
  match value with
  | Some v -> Printf.sprintf "ok %s %d" (show v) read
  | None -> Printf.sprintf "unlikely %d" read

let show_bool value read = Printf.sprintf "ok %d %d" (if value then 1 else 0) read

let show_index = show_option (fun v -> string_of_int (int_of_nat v))

let show_order =
  show_option (fun p -> String.concat "," (List.map (fun v -> string_of_int (int_of_nat v)) p))

(* A dyadic from its lead and its digits: "lead digits". *)
let dyadic_text t = Printf.sprintf "%d %s" (int_of_nat t.lead) (bits_text t.digits)

let binary value width = List.init width (fun i -> (value lsr (width - 1 - i)) land 1 = 1)

(* beta^(2^i) = x^(2^i) / 2^(y 2^i), exactly, as dpsel_dyadic stores it: the
   zeros after the point, then the digits up to the last 1. *)
let decay_table x y npowers =
  List.init npowers (fun i ->
      let e = 1 lsl i in
      let rec pow a k = if k = 0 then 1 else a * pow a (k - 1) in
      let all = binary (pow x e) (y * e) in
      let rec split lead = function false :: rest -> split (lead + 1) rest | rest -> (lead, rest) in
      let lead, rest = split 0 all in
      let rec drop_zeros = function false :: rest -> drop_zeros rest | rest -> rest in
      { lead = nat_of_int lead; digits = List.rev (drop_zeros (List.rev rest)) })

let table_text table = String.concat " " (string_of_int (List.length table) :: List.map dyadic_text table)

let scores_text scores = String.concat " " (List.map string_of_int (List.length scores :: scores))

let coin_case t scale bits =
  case (Printf.sprintf "coin %s %d" (dyadic_text t) scale)
    (coin_dyadic_scaled t (nat_of_int scale)) show_bool bits

let power_case table g scale bits =
  case (Printf.sprintf "power %s %d %d" (table_text table) g scale)
    (coin_power_scaled table (nat_of_int g) (nat_of_int scale)) show_bool bits

let uniform_case k bits = case (Printf.sprintf "uniform %d" k) (uniform (nat_of_int k)) show_index bits

let shuffle_case n bits =
  case (Printf.sprintf "shuffle %d" n) (fisher_yates (nat_of_int n)) show_order bits

let selection_case name sampler table cap scores bits =
  case (Printf.sprintf "%s %s %d %s" name (table_text table) cap (scores_text scores))
    (sampler table (nat_of_int cap) (List.map nat_of_int scores)) show_index bits

let leads table g =
  List.fold_left ( + ) 0
    (List.mapi (fun i t -> if (g lsr i) land 1 = 1 then int_of_nat t.lead else 0) table)

let tables = [ (1, 1, 2); (1, 2, 2); (3, 2, 2); (5, 3, 3); (7, 3, 2); (3, 4, 3) ]

let vectors = [ [ 0 ]; [ 3; 1 ]; [ 2; 2; 0 ]; [ 5; 0; 4; 1 ]; [ 1; 3; 3; 0; 2 ] ]

let enumerate len =
  let strings = all_strings len in
  let each f = List.iter f strings in
  for lead = 0 to 2 do
    for ndigits = 0 to 4 do
      List.iter (fun digits ->
          for scale = 0 to lead do
            each (coin_case { lead = nat_of_int lead; digits } scale)
          done)
        (all_strings ndigits)
    done
  done;
  List.iter (fun (x, y, npowers) ->
      let table = decay_table x y npowers in
      for g = 0 to (1 lsl npowers) - 1 do
        for scale = 0 to min 1 (leads table g) do
          each (power_case table g scale)
        done
      done)
    tables;
  for k = 1 to 13 do each (uniform_case k) done;
  for n = 1 to 5 do each (shuffle_case n) done;
  List.iter (fun (x, y, npowers) ->
      let table = decay_table x y npowers in
      let cap = (1 lsl npowers) - 1 in
      List.iter (fun scores ->
          each (selection_case "em" em table cap scores);
          each (selection_case "pf" pf table cap scores))
        vectors)
    [ (1, 1, 2); (3, 2, 2); (5, 3, 3) ]

let random_cases count =
  for _ = 1 to count do
    let bits = random_string (32 + Random.int 224) in
    let x_y_np = List.nth tables (Random.int (List.length tables)) in
    let x, y, npowers = x_y_np in
    let table = decay_table x y npowers in
    let scores = List.init (1 + Random.int 12) (fun _ -> Random.int 12) in
    match Random.int 6 with
    | 0 ->
        let lead = Random.int 6 in
        coin_case { lead = nat_of_int lead; digits = random_string (Random.int 40) } (Random.int (lead + 1)) bits
    | 1 ->
        let g = Random.int (1 lsl npowers) in
        power_case table g (Random.int (leads table g + 1)) bits
    | 2 -> uniform_case (1 + Random.int 1000) bits
    | 3 -> shuffle_case (1 + Random.int 12) bits
    | 4 -> selection_case "em" em table (Random.int (1 lsl npowers)) scores bits
    | _ -> selection_case "pf" pf table (Random.int (1 lsl npowers)) scores bits
  done

let () =
  let len = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 8 in
  let count = if Array.length Sys.argv > 2 then int_of_string Sys.argv.(2) else 2000 in
  Random.init 43;
  enumerate len;
  random_cases count;
  Printf.printf "end %d\n" !cases
